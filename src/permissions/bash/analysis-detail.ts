import type { BashPart } from './command.js';
import type { BuiltinHit } from './safety.js';

/** What the analysis of one bash command found: the walk (walk.ts) fills it in, analysis.ts finishes and returns it. */
export interface BashAnalysisDetail {
  parts: BashPart[];
  /** Spellings that are not parts of their own (an `sh -c '...'` wrapper) but that deny and ask rules still see. */
  wrapperForms: string[];
  compound: boolean;
  /** Too dangerous to ever run (`rm -rf /`, `mkfs`, a write to a disk, a fork bomb), whatever the settings. */
  dangerous?: string;
  /** cairn's reading may not be bash's: a syntax error, or a construct tree-sitter is known to misread. */
  unparseable?: boolean;
  unparseableReason?: string;
  /** Set when what runs is computed at run time ($IFS tricks, a command name from an expansion, code hidden in a value). */
  obfuscated?: string;
  /** Redirect targets and output files: each is judged as write_file would be. */
  writesFiles: string[];
  /** Files changed by file programs (cp/mv/rm/touch/sed -i...): they must stay inside the workspace and unprotected. */
  changesFiles: string[];
  /** Path arguments of programs that read, and input redirects. */
  readsFiles: string[];
  /** Every part is read-only and nothing is written, risked, computed or changed: safe to run without asking. */
  readOnly: boolean;
  /** The built-in deny rules the command falls under, at any level of wrapping. */
  builtinHits: BuiltinHit[];
  /** `cd`, `pushd`, `env -C`...: relative paths after it cannot be resolved before it runs. */
  changesDirectory: boolean;
  /** Set when files are written and a later program (not provably read-only) may read them. */
  writesThenRuns?: string;
}
