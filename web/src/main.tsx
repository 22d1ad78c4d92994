import { render } from "preact";
import { App } from "./app.tsx";
import { loadLanguage } from "./lib/i18n.ts";
import { watchScrollRegions } from "./lib/scroll-regions.ts";

// The sign-in pages follow the browser's language; once signed in, the user's preference.
const root = document.getElementById("app")!;
void loadLanguage(navigator.language).then(() => {
  render(<App />, root);
  watchScrollRegions(root);
});
