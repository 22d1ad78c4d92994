import { render } from "preact";
import { App } from "./app.tsx";
import { setLanguage } from "./lib/i18n.ts";

// The sign-in pages follow the browser's language; once signed in, the user's preference.
setLanguage(navigator.language);

render(<App />, document.getElementById("app")!);
