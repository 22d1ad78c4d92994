import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import plugin from "../../plugins/scheduled-investment/index.ts";
import type { ScheduledInvestmentParams } from "../../plugins/scheduled-investment/params.ts";
import type { IsoDateRange, ScheduledInvestmentProvider } from "../../sdk/index.ts";
import { createFakeContext, runScheduledInvestmentProviderContract } from "../../sdk/testing/index.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "scheduled-investment");

interface Scenario {
  _scenario: string;
  events: Array<Plain["events"][number] & { _why: string }>;
  params: unknown;
  prices: { at: Array<{ date: string; value: string }>; count: number; first: string; last: string };
  range: IsoDateRange;
}

const scenarios = readdirSync(FIXTURES)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => ({ name, scenario: JSON.parse(readFileSync(join(FIXTURES, name), "utf8")) as Scenario }));

const provider = (await plugin.create(createFakeContext())) as ScheduledInvestmentProvider<ScheduledInvestmentParams>;
const monthly = scenarios.find((s) => s.name === "monthly-interest-act365.json")!.scenario;

runScheduledInvestmentProviderContract(plugin, { sample: { params: monthly.params, range: monthly.range } });

const range = (from: string, to: string) => ({ from, to }) as IsoDateRange;
const parse = (raw: unknown) => provider.paramsSchema.parse(raw);
type Plain = {
  events: ReadonlyArray<{ currency?: string; date: string; type: string; value: string }>;
  prices: ReadonlyArray<{ date: string; value: string }>;
};
const run = (raw: unknown, from: string, to: string): Plain => {
  const input = { params: parse(raw), range: range(from, to) };
  return { events: provider.generateEvents(input), prices: provider.generatePrices(input) };
};
const valueOn = (prices: ReadonlyArray<{ date: string; value: string }>, date: string) => prices.find((p) => p.date === date)?.value;
const withoutWhy = ({ _why, ...event }: Scenario["events"][number]) => event;

/** A one-period schedule of 10000.00 EUR; one day at 3.65 % ACT/365 is 1.00. */
function schedule(overrides: Record<string, unknown> = {}, period: Record<string, unknown> = {}) {
  return {
    asset_events: [],
    day_count: "ACT/365",
    initial_value: { amount: "10000.00", code: "EUR" },
    interest_type: "SIMPLE",
    schedule: [{ annual_rate: "0.0365", end_date: "2024-03-01", generate_interest: true, maturation_frequency: "MONTHLY", start_date: "2024-01-01", ...period }],
    ...overrides,
  };
}

describe("hand-computed scenarios (test/fixtures/scheduled-investment)", () => {
  for (const { name, scenario } of scenarios) {
    test(`${name}: ${scenario._scenario}`, () => {
      const { events, prices } = run(scenario.params, scenario.range.from, scenario.range.to);
      expect(prices).toHaveLength(scenario.prices.count);
      expect(prices[0]?.date).toBe(scenario.prices.first);
      expect(prices.at(-1)?.date).toBe(scenario.prices.last);
      for (const expected of scenario.prices.at) expect({ date: expected.date, value: valueOn(prices, expected.date) }).toEqual({ date: expected.date, value: expected.value });
      expect(events).toEqual(scenario.events.map(withoutWhy));
    });
  }
});

describe("payout: generate_interest, maturation dates, reset, settlement", () => {
  test("DAILY payouts pay one day each and keep the value at initial_value", () => {
    const { events, prices } = run(schedule({}, { end_date: "2024-01-05", maturation_frequency: "DAILY" }), "2024-01-01", "2024-01-05");
    expect(events.map((e) => `${e.date} ${e.type} ${e.value}`)).toEqual([
      "2024-01-02 INTEREST 1.00", "2024-01-03 INTEREST 1.00", "2024-01-04 INTEREST 1.00", "2024-01-05 INTEREST 1.00",
      "2024-01-05 MATURITY_SETTLEMENT 10000.00",
    ]);
    expect(new Set(prices.map((p) => p.value))).toEqual(new Set(["10000.00"]));
  });

  test("WEEKLY payouts of 7 days, the last cycle shorter", () => {
    const { events } = run(schedule({}, { end_date: "2024-01-18", maturation_frequency: "WEEKLY" }), "2024-01-01", "2024-01-31");
    expect(events.filter((e) => e.type === "INTEREST").map((e) => `${e.date} ${e.value}`)).toEqual(["2024-01-08 7.00", "2024-01-15 7.00", "2024-01-18 3.00"]);
  });

  test("no MATURITY_SETTLEMENT when the last period does not pay interest out, even if an earlier one does", () => {
    const params = schedule({
      schedule: [
        { annual_rate: "0.0365", end_date: "2024-01-31", generate_interest: true, maturation_frequency: "MONTHLY", start_date: "2024-01-01" },
        { annual_rate: "0.0365", end_date: "2024-02-29", generate_interest: false, maturation_frequency: "MONTHLY", start_date: "2024-02-01" },
      ],
    });
    const { events, prices } = run(params, "2024-01-01", "2024-03-10");
    expect(events.map((e) => `${e.date} ${e.type} ${e.value}`)).toEqual(["2024-01-31 INTEREST 30.00"]);
    expect(valueOn(prices, "2024-03-10")).toBe("10029.00"); // 02-01..02-29 earn 29 days, then nothing more
  });

  test("event amounts are rounded to 2 decimals half to even; the reset drops the rest", () => {
    // 1000.00 at 4.5 % ACT/360 for 1 day is 0.125 -> 0.12; at 4.86 % it is 0.135 -> 0.14.
    const oneDay = (rate: string) =>
      run(schedule({ day_count: "ACT/360", initial_value: { amount: "1000.00", code: "EUR" } }, { annual_rate: rate, end_date: "2024-01-02" }), "2024-01-01", "2024-01-03");
    expect(oneDay("0.045").events.map((e) => e.value)).toEqual(["0.12", "1000.00"]);
    expect(oneDay("0.0486").events.map((e) => e.value)).toEqual(["0.14", "1000.00"]);
    expect(valueOn(oneDay("0.045").prices, "2024-01-03")).toBe("1000.00");
  });

  test("a zero rate creates no INTEREST event", () => {
    const { events } = run(schedule({}, { annual_rate: "0" }), "2024-01-01", "2024-03-31");
    expect(events.map((e) => e.type)).toEqual(["MATURITY_SETTLEMENT"]);
  });

  test("late interest without an end_date keeps accruing and never settles", () => {
    const params = schedule({ late_interest: { annual_rate: "0.073" } }, { end_date: "2024-01-31" });
    const { events, prices } = run(params, "2024-01-01", "2024-02-10");
    expect(events.map((e) => `${e.date} ${e.type} ${e.value}`)).toEqual(["2024-01-31 INTEREST 30.00"]);
    expect(valueOn(prices, "2024-02-10")).toBe("10020.00"); // 10 late days x 2.00
  });

  test("late interest with generate_interest false accrues to its end_date and does not settle", () => {
    const params = schedule({ late_interest: { annual_rate: "0.073", end_date: "2024-02-05", generate_interest: false } }, { end_date: "2024-01-31" });
    const { events, prices } = run(params, "2024-01-01", "2024-02-10");
    expect(events.map((e) => e.type)).toEqual(["INTEREST"]);
    expect(valueOn(prices, "2024-02-10")).toBe("10010.00"); // 5 late days x 2.00, then nothing more
  });

  test("late interest may pay out periodically before settling", () => {
    const late = { annual_rate: "0.0365", end_date: "2024-02-20", maturation_frequency: "WEEKLY" };
    const { events } = run(schedule({ late_interest: late }, { end_date: "2024-01-31" }), "2024-01-01", "2024-03-01");
    expect(events.map((e) => `${e.date} ${e.type} ${e.value}`)).toEqual([
      "2024-01-31 INTEREST 30.00", "2024-02-07 INTEREST 7.00", "2024-02-14 INTEREST 7.00", "2024-02-20 INTEREST 6.00",
      "2024-02-20 MATURITY_SETTLEMENT 10000.00",
    ]);
  });

  test("a listed MATURITY_SETTLEMENT settles early: its value holds afterwards and nothing is generated later", () => {
    const params = schedule({ asset_events: [{ date: "2024-02-10", type: "MATURITY_SETTLEMENT", value: { amount: "10009.00", code: "EUR" } }] });
    const { events, prices } = run(params, "2024-01-01", "2024-03-31");
    expect(events.map((e) => `${e.date} ${e.type} ${e.value}`)).toEqual(["2024-02-01 INTEREST 31.00", "2024-02-10 MATURITY_SETTLEMENT 10009.00"]);
    expect(valueOn(prices, "2024-02-09")).toBe("10008.00");
    expect(prices.filter((p) => p.date >= "2024-02-10").every((p) => p.value === "10009.00")).toBe(true);
  });
});

describe("listed asset_events are returned with the generated ones", () => {
  test("a listed INTEREST on a maturation date is part of the payout: one event per date and type", () => {
    const params = schedule({ asset_events: [{ date: "2024-02-01", type: "INTEREST", value: { amount: "10.00", code: "EUR" } }] });
    const { events, prices } = run(params, "2024-01-01", "2024-02-02");
    expect(events.map((e) => `${e.date} ${e.type} ${e.value}`)).toEqual(["2024-02-01 INTEREST 31.00"]);
    expect(valueOn(prices, "2024-02-01")).toBe("10000.00");
  });

  test("a listed INTEREST between maturation dates lowers the value and the next payout", () => {
    const params = schedule({ asset_events: [{ date: "2024-01-20", type: "INTEREST", value: { amount: "10.00", code: "EUR" } }] });
    const { events, prices } = run(params, "2024-01-01", "2024-02-02");
    expect(events.map((e) => `${e.date} ${e.type} ${e.value}`)).toEqual(["2024-01-20 INTEREST 10.00", "2024-02-01 INTEREST 21.00"]);
    expect(valueOn(prices, "2024-01-20")).toBe("10009.00");
  });

  test("a listed DIVIDEND is returned and leaves the value alone (the value counts INTEREST and PRICE_ADJUSTMENT)", () => {
    const params = schedule({ asset_events: [{ date: "2024-01-10", type: "DIVIDEND", value: { amount: "3.00", code: "EUR" } }] });
    const { events, prices } = run(params, "2024-01-10", "2024-01-10");
    expect(events).toEqual([{ currency: "EUR", date: "2024-01-10", type: "DIVIDEND", value: "3.00" }]);
    expect(prices).toEqual([{ date: "2024-01-10", value: "10009.00" }]);
  });
});

describe("price(d) = initial_value + accrued - INTEREST + PRICE_ADJUSTMENT, interest on initial_value", () => {
  test("a PRICE_ADJUSTMENT earns no interest (SIMPLE and COMPOUND)", () => {
    for (const interest_type of ["SIMPLE", "COMPOUND"]) {
      const adjustment = [{ date: "2024-01-01", type: "PRICE_ADJUSTMENT", value: { amount: "10000.00", code: "EUR" } }];
      const { prices } = run(schedule({ asset_events: adjustment, interest_type }, { generate_interest: false }), "2024-01-01", "2024-01-11");
      expect(valueOn(prices, "2024-01-11")).toBe("20010.00");
    }
  });

  test("COMPOUND with payouts has nothing left to capitalise: it equals SIMPLE", () => {
    const simple = run(schedule(), "2024-01-01", "2024-03-10");
    expect(run(schedule({ interest_type: "COMPOUND" }), "2024-01-01", "2024-03-10")).toEqual(simple);
  });

  test("SIMPLE without payouts never earns on earlier interest", () => {
    const { prices } = run(schedule({}, { generate_interest: false }), "2024-03-01", "2024-03-01");
    expect(prices).toEqual([{ date: "2024-03-01", value: "10060.00" }]); // 60 days x 1.00
  });
});

describe("periods", () => {
  test("days in a gap between periods earn nothing; the next period earns from its start_date", () => {
    const params = schedule({
      schedule: [
        { annual_rate: "0.0365", end_date: "2024-01-10", generate_interest: false, maturation_frequency: "MONTHLY", start_date: "2024-01-01" },
        { annual_rate: "0.073", end_date: "2024-01-31", generate_interest: false, maturation_frequency: "MONTHLY", start_date: "2024-01-21" },
      ],
    });
    const { prices } = run(params, "2024-01-01", "2024-01-31");
    expect(["2024-01-10", "2024-01-15", "2024-01-20", "2024-01-21", "2024-01-31"].map((day) => valueOn(prices, day))).toEqual([
      "10009.00", "10009.00", "10009.00", "10011.00", "10031.00", // 9 x 1.00, gap, then 1 and 11 days x 2.00
    ]);
  });
});

describe("ranges", () => {
  test("nothing before the first start_date; nothing at all when the range ends before it", () => {
    expect(run(schedule(), "2023-12-01", "2023-12-31")).toEqual({ events: [], prices: [] });
    expect(run(schedule(), "2023-12-30", "2024-01-01").prices).toEqual([{ date: "2024-01-01", value: "10000.00" }]);
  });

  test("a part of the range gives the same values and events as the whole", () => {
    const whole = run(schedule(), "2024-01-01", "2024-04-30");
    const part = run(schedule(), "2024-02-01", "2024-03-01");
    expect(part.prices).toEqual(whole.prices.filter((p) => p.date >= "2024-02-01" && p.date <= "2024-03-01"));
    expect(part.events).toEqual(whole.events.filter((e) => e.date >= "2024-02-01" && e.date <= "2024-03-01"));
  });

  test("ten years of daily values, listed every day after the end too", () => {
    const params = schedule({}, { end_date: "2034-01-01", maturation_frequency: "DAILY" });
    const { events, prices } = run(params, "2024-01-01", "2035-12-31");
    expect(prices).toHaveLength(4383);
    expect(events.filter((e) => e.type === "INTEREST")).toHaveLength(3653);
  });
});

describe("purity", () => {
  test("generation leaves its input untouched and its output survives structured cloning", () => {
    const input = { params: parse(monthly.params), range: monthly.range };
    const before = structuredClone(input);
    const output = { events: provider.generateEvents(input), prices: provider.generatePrices(input) };
    expect(input).toEqual(before);
    expect(structuredClone(output)).toStrictEqual(output);
  });
});
