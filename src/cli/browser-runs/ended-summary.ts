/**
 * `--summary FILE.md` for a sweep that ends before its report (refused input, a store that broke
 * the adapter contract, a build that failed, a crash), and for a check whatever its outcome. CI
 * posts the file when it exists, so a run that writes none is a run CI hears nothing of. What
 * goes in is what the command said of it: its failure lines and the contract's lines, with the
 * exit code and what it means.
 */
import {
  endedSummaryMarkdown,
  SWEEP_SUMMARY,
  type SummaryCommand,
} from '../../export/summary-markdown.ts';
import { displayPath, outputFailure, writeAtomically } from '../files/output.ts';

/** --summary's file as argv gives it (`--summary F` or `--summary=F`), read before any other check, so refused input still has one. */
function summaryPath(argv: readonly string[]): string | null {
  let path: string | null = null;
  argv.forEach((a, i) => {
    if (a === '--summary' && argv[i + 1] !== undefined && !argv[i + 1]?.startsWith('--'))
      path = argv[i + 1] as string;
    else if (a.startsWith('--summary=')) path = a.slice('--summary='.length);
  });
  return path === '' ? null : path;
}

export class EndedSummary {
  private path: string | null;
  private readonly lines: string[] = [];
  private done = false;

  constructor(
    argv: readonly string[],
    private readonly command: SummaryCommand = SWEEP_SUMMARY,
  ) {
    this.path = summaryPath(argv);
  }

  /** The path the inputs settled on (a config's `summary` too), once they are read. */
  at(path: string | null): void {
    if (path !== null) this.path = path;
  }

  /** A line the sweep printed: the contract's FAIL lines are kept. */
  heard(line: string): void {
    if (line.trimStart().startsWith('FAIL ')) this.lines.push(line);
  }

  /** A failure the command printed, or a line of its outcome it keeps whole (check's per store). */
  failed(line: string): void {
    this.lines.push(line);
  }

  /** The report took over: it writes the summary with the results. */
  reported(): void {
    this.done = true;
  }

  /** Write the summary unless the report did, or there is no --summary; false when the write failed (said). */
  write(code: number, out: (line: string) => void, fail: (line: string) => void): boolean {
    // A sweep's exit 0 without a report is --help: nothing ran that CI needs to hear of.
    if (this.done || this.path === null || (code === 0 && !this.command.writesOk)) return true;
    // The path itself was refused (it cannot be written): saying so again would be all it adds.
    if (this.lines.some((l) => l.startsWith('--summary:'))) return true;
    const text = endedSummaryMarkdown(code, this.lines, this.command);
    try {
      writeAtomically(this.path, text);
      out(`Summary: ${displayPath(this.path)} (Markdown, ${text.length} characters)`);
      return true;
    } catch (e) {
      fail(`--summary: ${outputFailure(this.path, e)}`);
      return false;
    }
  }
}
