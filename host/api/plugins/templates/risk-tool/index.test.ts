import { runRiskToolContract } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

runRiskToolContract(plugin, {
  expectedOutput: { worst: "-0.02", mean: "0.0033333333" },
  sampleInput: { returns: ["0.01", "-0.02", "0.02"] },
});
