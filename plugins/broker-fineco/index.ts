import { definePlugin } from "../../sdk/index.ts";
import { acceptsFineco, parseFineco } from "./parse.ts";

/** FinecoBank (code broker_fineco): "Movimenti Dossier Titoli", CSV or XLS/XLSX. */
export const brokerFinecoPlugin = definePlugin({
  create: () => ({ accepts: acceptsFineco, detectionPriority: 60, parse: parseFineco, supportedExtensions: ["csv", "xls", "xlsx"] }),
  description: "FinecoBank Movimenti Dossier Titoli (CSV, XLS or XLSX): trades with their commissions (foreign ones through an FX pair), dividends, coupons, capital increases, redemptions",
  id: "broker_fineco",
  kind: "import-plugin",
  name: "FinecoBank",
  version: "1.2.0",
});

export default brokerFinecoPlugin;
