import { Page } from "../components/ui.tsx";
import { Link } from "../lib/router.tsx";

/** The broker-report import wizard arrives with the BRIM API; until then the page says so. */
export function ImportPage() {
  return (
    <Page title="Import">
      <div class="note" role="status">
        <p><strong>Importing broker reports is coming soon.</strong></p>
        <p>The server does not offer the import API yet. Meanwhile you can keep the report under <Link href="/uploads">Uploads</Link> and
          enter its transactions on the <Link href="/transactions">Transactions</Link> page.</p>
      </div>
    </Page>
  );
}
