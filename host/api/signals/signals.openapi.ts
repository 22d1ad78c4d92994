import type { AreaDocs } from "../../http/openapi/operations.ts";

/** OpenAPI text of the signals area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const signalsDocs: AreaDocs = {
  operations: {
    "POST /signals/preview": {
      changes: "Nothing: a calculation on the points sent.",
      request: {
        domain: "asset", points: [{ date: "2024-01-02", value: 10 }, { date: "2024-01-03", value: 11 }, { date: "2024-01-04", value: 12 }],
        signals: [{ instance_id: "sma2", signal_code: "SMA", params: { period: 2 } }],
      },
      response: {
        signals: [{
          instance_id: "sma2", signal_code: "SMA", status: "ok",
          outputs: { value: [{ date: "2024-01-02", value: null }, { date: "2024-01-03", value: 10.5 }, { date: "2024-01-04", value: 11.5 }] },
        }],
      },
    },
  },
  fields: {
    signal_code: "Code of the signal",
    signals: "Signals computed over the series",
    requires_volume: "True when the signal needs traded volume",
    outputs: "Output series by name",
    points: "Points of the series",
  },
};
