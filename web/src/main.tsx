import { render } from "preact";
import { App } from "./app.tsx";
import { setLanguage } from "./lib/i18n.ts";
import { watchScrollRegions } from "./lib/scroll-regions.ts";

// The sign-in pages follow the browser's language; once signed in, the user's preference.
setLanguage(navigator.language);

const root = document.getElementById("app")!;
render(<App />, root);
watchScrollRegions(root);
