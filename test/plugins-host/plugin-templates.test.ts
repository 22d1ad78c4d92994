// The scaffold's templates (host/cli/plugin-templates/<kind>/) pass their own contract tests in the
// repository too: each template's index.test.ts is imported here and registers its suite.
import "../../host/cli/plugin-templates/calculation-tool/index.test.ts";
import "../../host/cli/plugin-templates/fx-provider/index.test.ts";
import "../../host/cli/plugin-templates/risk-tool/index.test.ts";
