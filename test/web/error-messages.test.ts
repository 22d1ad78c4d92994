import { afterEach, expect, test } from "bun:test";
import { ApiError, errorText } from "../../web/src/api/client.ts";
import { loadLanguage, setLanguage } from "../../web/src/lib/i18n.ts";

// API errors are worded from their code and params in the user's language, naming brokers and
// assets by name (docs/errors.md); an error the app does not word shows the server's detail.
afterEach(() => setLanguage("en"));

test("a role too low names the broker and the role, in the user's language", async () => {
  const e = new ApiError(403, "BROKER_ROLE_REQUIRED", "OWNER or better access to broker \"Degiro\" is required", { broker_id: 1, broker_name: "Degiro", required_role: "OWNER", role: "VIEWER" });
  expect(errorText(e)).toBe("This needs the Owner role (or higher) on Degiro.");
  await loadLanguage("de");
  expect(errorText(e)).toBe("Dafür ist die Rolle Eigentümer (oder höher) bei Degiro nötig.");
});

test("a negative balance names the asset and the broker and writes the date in the locale", async () => {
  const e = new ApiError(409, "BALANCE_NEGATIVE", "server words", {
    broker_id: 1, broker_name: "Main", violations: [{ kind: "asset", date: "2024-05-02", asset_id: 7, asset_name: "Short Corp", balance: "-1" }],
  });
  expect(errorText(e)).toBe("The quantity of Short Corp at Main would go negative on May 2, 2024.");
  await loadLanguage("it");
  expect(errorText(e)).toBe("La quantità di Short Corp presso Main andrebbe in negativo il 2 mag 2024.");
});

test("without the names, or for a code the app does not word, the server's detail is shown", () => {
  expect(errorText(new ApiError(403, "BROKER_ROLE_REQUIRED", "EDITOR or better access to broker 3 is required", { broker_id: 3 }))).toBe("EDITOR or better access to broker 3 is required");
  expect(errorText(new ApiError(409, "SOMETHING_NEW", "Something new happened"))).toBe("Something new happened");
});
