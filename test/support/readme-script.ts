import { readFileSync } from 'node:fs';

/**
 * The shell examples of the README and the reference pages it links to, in the order of
 * EXAMPLE_PAGES, as one bash script: each curl command that a `# => NNN` line follows prints
 * its status, so a run can be held to the statuses the pages promise.
 */
export const EXAMPLE_PAGES = ['README.md', 'docs/api.md', 'docs/control-api.md', 'docs/rehearsing-failures.md'];

interface Example {
  command: string;
  expected: number;
}

/** Joins continued lines (a trailing backslash, or an open single-quoted string) into one. */
export function logicalLines(block: string): string[] {
  const out: string[] = [];
  let current: string | undefined;
  let joiner = '\n';
  for (const line of block.split('\n')) {
    current = current === undefined ? line : `${current}${joiner}${line}`;
    const openQuote = (current.match(/'/g) ?? []).length % 2 === 1;
    if (openQuote) joiner = '\n';
    else if (current.endsWith('\\')) {
      current = current.slice(0, -1);
      joiner = ' ';
    } else {
      out.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) out.push(current);
  return out;
}

export function shBlocks(page: string): string[] {
  return [...readFileSync(page, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

export function readmeScript(): { script: string; examples: Example[] } {
  const blocks = EXAMPLE_PAGES.flatMap(shBlocks);
  const examples: Example[] = [];
  const lines: string[] = [];
  for (const block of blocks) {
    const joined = logicalLines(block);
    for (let i = 0; i < joined.length; i++) {
      const line = joined[i]!;
      const expect = /^# => (\d{3})$/.exec(joined[i + 1] ?? '');
      if (line.startsWith('curl ') && expect) {
        examples.push({ command: line, expected: Number(expect[1]) });
        // Only the status is compared: whatever the example saves (-o FILE) goes nowhere.
        lines.push(`${line.replace(/\s-o\s+\S+/g, '')} -o /dev/null -w '%{http_code}\\n'`);
      } else if (line.trim() && !line.startsWith('#')) {
        lines.push(line);
      }
    }
  }
  return { script: lines.join('\n'), examples };
}

