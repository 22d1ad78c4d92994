/** Every portfolio fixture (test/fixtures/portfolios/, one scenario per file), in story order. */
import type { PortfolioFixture } from "./fixture-types.ts";
import { fixture as singleBuyAndHold } from "../fixtures/portfolios/single-buy-and-hold.ts";
import { fixture as buysAtSeveralPricesThenPartialSell } from "../fixtures/portfolios/buys-at-several-prices-then-partial-sell.ts";
import { fixture as dividendsAndFees } from "../fixtures/portfolios/dividends-and-fees.ts";
import { fixture as depositsAndWithdrawalsMidPeriod } from "../fixtures/portfolios/deposits-and-withdrawals-mid-period.ts";
import { fixture as twoForOneSplit } from "../fixtures/portfolios/two-for-one-split.ts";
import { fixture as transferBetweenBrokersWithDaysInTransit } from "../fixtures/portfolios/transfer-between-brokers-with-days-in-transit.ts";
import { fixture as twoCurrenciesTwoStepFxRoute } from "../fixtures/portfolios/two-currencies-two-step-fx-route.ts";
import { fixture as missingPrice } from "../fixtures/portfolios/missing-price.ts";
import { fixture as stalePrice } from "../fixtures/portfolios/stale-price.ts";
import { fixture as sharedBrokerTwoOwnersAndAnEditor } from "../fixtures/portfolios/shared-broker-two-owners-and-an-editor.ts";
import { fixture as unknownCostAdjustment } from "../fixtures/portfolios/unknown-cost-adjustment.ts";
import { fixture as navGoingToZero } from "../fixtures/portfolios/nav-going-to-zero.ts";
import { fixture as tradePriceAfterGracePeriod } from "../fixtures/portfolios/trade-price-after-grace-period.ts";
import { fixture as transferIntoAJointlyOwnedBroker } from "../fixtures/portfolios/transfer-into-a-jointly-owned-broker.ts";
import { fixture as currencyWithoutFxPair } from "../fixtures/portfolios/currency-without-fx-pair.ts";
import { fixture as valuationObservations } from "../fixtures/portfolios/valuation-observations.ts";
import { fixture as fxRatesWithGaps } from "../fixtures/portfolios/fx-rates-with-gaps.ts";
import { fixture as overdraftAndNegativeNav } from "../fixtures/portfolios/overdraft-and-negative-nav.ts";
import { fixture as withdrawingMoreThanInvested } from "../fixtures/portfolios/withdrawing-more-than-invested.ts";
import { fixture as cashTransferInTransit } from "../fixtures/portfolios/cash-transfer-in-transit.ts";
import { fixture as reportScopedToTheReceivingBroker } from "../fixtures/portfolios/report-scoped-to-the-receiving-broker.ts";
import { fixture as staleOrTradeValued } from "../fixtures/portfolios/stale-or-trade-valued.ts";
import { fixture as shortCoveredByALargerBuy } from "../fixtures/portfolios/short-covered-by-a-larger-buy.ts";

export const FIXTURES: PortfolioFixture[] = [
  singleBuyAndHold,
  buysAtSeveralPricesThenPartialSell,
  dividendsAndFees,
  depositsAndWithdrawalsMidPeriod,
  twoForOneSplit,
  transferBetweenBrokersWithDaysInTransit,
  twoCurrenciesTwoStepFxRoute,
  missingPrice,
  stalePrice,
  sharedBrokerTwoOwnersAndAnEditor,
  unknownCostAdjustment,
  navGoingToZero,
  tradePriceAfterGracePeriod,
  transferIntoAJointlyOwnedBroker,
  currencyWithoutFxPair,
  valuationObservations,
  fxRatesWithGaps,
  overdraftAndNegativeNav,
  withdrawingMoreThanInvested,
  cashTransferInTransit,
  reportScopedToTheReceivingBroker,
  staleOrTradeValued,
  shortCoveredByALargerBuy,
];
