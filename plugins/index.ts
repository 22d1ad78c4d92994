import type { Plugin } from "../sdk/index.ts";
import { aiExportDatasetPlugins } from "./ai-export/index.ts";
import { pacAllocatorPlugin, portfolioRebalancerPlugin } from "./allocation/index.ts";
import { boePlugin } from "./boe/index.ts";
import { borsaItalianaPlugin } from "./borsa-italiana/index.ts";
import { brokerAvanzaPlugin } from "./broker-avanza/index.ts";
import { brokerBitvavoPlugin } from "./broker-bitvavo/index.ts";
import { brokerBuxPlugin } from "./broker-bux/index.ts";
import { brokerCoinbasePlugin } from "./broker-coinbase/index.ts";
import { brokerComdirectPdfPlugin } from "./broker-comdirect-pdf/index.ts";
import { brokerConsorsbankPdfPlugin } from "./broker-consorsbank-pdf/index.ts";
import { brokerDegiroPlugin } from "./broker-degiro/index.ts";
import { brokerDirectaPlugin } from "./broker-directa/index.ts";
import { brokerEtoroPlugin } from "./broker-etoro/index.ts";
import { brokerFidelityPlugin } from "./broker-fidelity/index.ts";
import { brokerFinecoPlugin } from "./broker-fineco/index.ts";
import { brokerFinpensionPlugin } from "./broker-finpension/index.ts";
import { brokerFlatexPdfPlugin } from "./broker-flatex-pdf/index.ts";
import { brokerFreetradePlugin } from "./broker-freetrade/index.ts";
import { brokerGenericCsvPlugin } from "./broker-generic-csv/index.ts";
import { brokerIbkrPlugin } from "./broker-ibkr/index.ts";
import { brokerIngPdfPlugin } from "./broker-ing-pdf/index.ts";
import { brokerInteractiveInvestorPlugin } from "./broker-interactive-investor/index.ts";
import { brokerLightyearPlugin } from "./broker-lightyear/index.ts";
import { brokerNordnetPlugin } from "./broker-nordnet/index.ts";
import { brokerRevolutPlugin } from "./broker-revolut/index.ts";
import { brokerSaxoPlugin } from "./broker-saxo/index.ts";
import { brokerScalablePlugin } from "./broker-scalable/index.ts";
import { brokerScalablePdfPlugin } from "./broker-scalable-pdf/index.ts";
import { brokerSchwabPlugin } from "./broker-schwab/index.ts";
import { brokerSwissquotePlugin } from "./broker-swissquote/index.ts";
import { brokerTraderepublicPlugin } from "./broker-traderepublic/index.ts";
import { brokerTraderepublicPdfPlugin } from "./broker-traderepublic-pdf/index.ts";
import { brokerTrading212Plugin } from "./broker-trading212/index.ts";
import { brokerVanguardUkPlugin } from "./broker-vanguard-uk/index.ts";
import { brokerXtbPlugin } from "./broker-xtb/index.ts";
import { cssscraperPlugin } from "./cssscraper/index.ts";
import { ecbPlugin } from "./ecb/index.ts";
import { fedPlugin } from "./fed/index.ts";
import { justetfPlugin } from "./justetf/index.ts";
import { riskPlugins } from "./risk/index.ts";
import { scheduledInvestmentPlugin } from "./scheduled-investment/index.ts";
import { snbPlugin } from "./snb/index.ts";
import { yfinancePlugin } from "./yfinance/index.ts";

/**
 * The built-in plugins, an explicit list sorted alphabetically by export name (no scanning of our own
 * tree). Each vendor folder's index.ts exports `<camelId>Plugin` values made by
 * definePlugin; add them here as they land. Self-hosters add more through PLUGINS_DIR instead.
 */
export const builtinPlugins: Plugin[] = [
  boePlugin, borsaItalianaPlugin, brokerAvanzaPlugin, brokerBitvavoPlugin, brokerBuxPlugin, brokerCoinbasePlugin, brokerComdirectPdfPlugin, brokerConsorsbankPdfPlugin, brokerDegiroPlugin, brokerDirectaPlugin, brokerEtoroPlugin,
  brokerFidelityPlugin,
  brokerFinecoPlugin, brokerFinpensionPlugin, brokerFlatexPdfPlugin,
  brokerFreetradePlugin,
  brokerGenericCsvPlugin, brokerIbkrPlugin, brokerIngPdfPlugin,
  brokerInteractiveInvestorPlugin,
  brokerLightyearPlugin,
  brokerNordnetPlugin, brokerRevolutPlugin, brokerSaxoPlugin, brokerScalablePlugin, brokerScalablePdfPlugin, brokerSchwabPlugin, brokerSwissquotePlugin, brokerTraderepublicPlugin,
  brokerTraderepublicPdfPlugin,
  brokerTrading212Plugin,
  brokerVanguardUkPlugin,
  brokerXtbPlugin,
  cssscraperPlugin, ecbPlugin, fedPlugin, justetfPlugin, pacAllocatorPlugin, portfolioRebalancerPlugin, scheduledInvestmentPlugin, snbPlugin,
  yfinancePlugin,
  // The risk analytics (one risk-tool plugin each) share one folder and its statistics.
  ...riskPlugins,
  // The AI-export datasets compose host components; one plugin each.
  ...aiExportDatasetPlugins,
];
