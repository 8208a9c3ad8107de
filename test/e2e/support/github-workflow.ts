// The shape of a GitHub Actions workflow step, as the workflow tests read the examples' YAML.
export interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
