import { runCalculationToolContract } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

runCalculationToolContract(plugin, {
  expectedOutput: { amount: "1628.89" },
  sampleInput: { principal: "1000", rate: "0.05", years: "10" },
});
