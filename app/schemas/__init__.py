"""Marshmallow schemas: every request body, query string and response of the HTTP API."""
