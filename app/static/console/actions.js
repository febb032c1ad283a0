// Legal actions as people say them: named by card and by what they do.
import {instanceName} from "./cards.js";

const PASS = {
  ener: "Pass: end the ener phase",
  grow: "Pass: do not grow",
  main: "Pass: end the main phase",
  pre_attack: "Pass: go on to the attacks",
  defense: "Pass: no defence",
  signi_attack: "Pass: end the SIGNI attacks",
  lrig_attack: "Pass: end the LRIG attack",
  guard: "Pass: do not guard",
  life_burst: "Pass: do not use the Life Burst",
  spell_cut_in: "Pass: no cut-in",
  choose: "Pass: choose nothing",
};

const list = (refs) => (refs || []).map(instanceName).join(", ");

export function signiIn(state, player, zone) {
  const slot = state && state.players && state.players[player] && state.players[player].signi[zone];
  return slot || null;
}

export function actionLabel(action, state) {
  const c = () => instanceName(action.card);
  const pay = Array.isArray(action.pay) && action.pay.length ? `, pay ${list(action.pay)}` : "";
  switch (action.type) {
    case "mulligan":
      return action.cards.length ? `Return ${list(action.cards)} and redraw` : "Keep the hand";
    case "ener_charge":
      return `Charge ${c()} into ener${action.from === "field" ? " from the field" : ""}`;
    case "grow":
      return `Grow to ${c()}${pay}`;
    case "grow_assist":
      return `Grow the ${action.position} assist LRIG to ${c()}${pay}`;
    case "play_signi":
      return `Play ${c()} to the ${action.zone} zone`;
    case "remove_signi":
      return `Remove the SIGNI in the ${(action.zones || []).join(" and ")} zone${(action.zones || []).length > 1 ? "s" : ""}`;
    case "use_spell":
      return `Use the spell ${c()}${pay}`;
    case "use_arts":
      return `Use the ARTS ${c()}${pay}`;
    case "use_piece":
      return `Use the PIECE ${c()}${pay}`;
    case "use_ability":
      return `Use ${c()}'s ability${action.ability !== undefined ? ` ${Number(action.ability) + 0 || action.ability}` : ""}${pay}`;
    case "attack": {
      if (action.zone === "lrig") return "Attack with the center LRIG";
      const slot = signiIn(state, action.player, action.zone);
      return `Attack with ${slot ? instanceName(slot.iid) : "the SIGNI"} from the ${action.zone} zone`;
    }
    case "guard": {
      const discard = Array.isArray(action.discard) && action.discard.length ? list(action.discard) : "";
      if (!action.card) return `Guard by discarding ${discard}${pay}`;
      return `Guard with ${c()}${discard ? `, also discarding ${discard}` : ""}${pay}`;
    }
    case "life_burst":
      return action.use ? `Use the Life Burst of ${c()}` : `Do not use the Life Burst of ${c()}`;
    case "discard":
      return `Discard ${list(action.cards) || "nothing"}`;
    case "choose": {
      if (Array.isArray(action.order)) return `Resolve in this order: ${action.order.join(", ")}`;
      if (Array.isArray(action.cards)) return action.cards.length ? `Choose ${list(action.cards)}` : "Choose nothing";
      if (Array.isArray(action.zones)) return `Choose the ${action.zones.join(" and ")} zone`;
      if (action.option !== undefined) return `Choose option ${action.option}`;
      return "Choose";
    }
    case "pass": {
      const kind = state && state.pending ? state.pending.kind : "";
      return PASS[kind] || "Pass";
    }
    case "concede":
      return "Concede the game";
    default:
      return action.type.replace(/_/g, " ");
  }
}
