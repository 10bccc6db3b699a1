import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The image's figures (build time, size, start, health, stop, memory), recorded by the tests
 * that measure them and printed as one table when the suite ends; docs/benchmarks.md quotes a
 * run of it. One JSON line per figure in a file, since every test file runs in a worker of its own.
 */
const NUMBERS_FILE = join(dirname(fileURLToPath(import.meta.url)), '../../.bench-tmp/image-numbers.jsonl');

export interface Figure {
  name: string;
  value: number;
  unit: 'ms' | 'MB' | 'MiB' | 's';
  target?: string;
}

export function record(figure: Figure): void {
  mkdirSync(dirname(NUMBERS_FILE), { recursive: true });
  appendFileSync(NUMBERS_FILE, `${JSON.stringify(figure)}\n`);
}

export function resetNumbers(): void {
  rmSync(NUMBERS_FILE, { force: true });
}

export function numbersTable(): string {
  let lines: Figure[] = [];
  try {
    lines = readFileSync(NUMBERS_FILE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Figure);
  } catch {
    return 'no figures recorded';
  }
  const rows = lines.map((f) => `| ${f.name} | ${Number.isInteger(f.value) ? f.value : f.value.toFixed(1)} ${f.unit} | ${f.target ?? ''} |`);
  return ['| figure | measured | target |', '| --- | --- | --- |', ...rows].join('\n');
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
