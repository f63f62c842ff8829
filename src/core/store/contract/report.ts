/**
 * What the adapter contract saw of one store in one browser (src/adapters/contract-probes/ runs it in the
 * page), and what it found wrong. The same records serve the contract test and `storebench check`.
 */
import type { Durability, StoreAdapter } from '../adapter.ts';
import type { Capability } from '../capabilities.ts';

/** Storage names present in the page: what a store left behind is the difference of two. */
export interface Footprint {
  idb: string[];
  localStorage: string[];
  memory: string[];
}

/** One operation of a transcript: the contract (method) it checks, what was asked, and the answer. */
export interface Step {
  contract: string;
  name: string;
  value: unknown;
}

/** A view answer next to the rows computed from the documents. */
export interface ViewCheck {
  name: string;
  actual: unknown;
  expected: unknown;
}

export interface QueryReport {
  /** The memory store's transcript and the adapter's, step for step. */
  reference: Step[];
  steps: Step[];
  /** applyFind and countMatches over the documents, per query number. */
  expected: { find: unknown[][]; count: number[] };
  /** How many documents the query store holds, and its ids in order. */
  docCount: number;
  ids: string[];
  views?: ViewCheck[];
  /** Storage the query stores left behind (PouchDB's views live in databases of their own). */
  left: Footprint;
}

export interface DeletedByName {
  footprint: Footprint;
  countWhenReopened: number;
}

export interface WorkerAnswer {
  ok: boolean;
  count?: number;
  doc?: unknown;
  error?: string;
}

/** A store that says it cannot run here, and whether open() then rejected as it must. */
export interface UnsupportedReport {
  supported: string;
  openWhenUnsupported: string;
}

export interface SupportedReport {
  supported: true;
  /** As declared in the page: some depend on the engine (durability). */
  capabilities: Capability[];
  backend: StoreAdapter['backend'];
  /** The methods a handle has. */
  methods: string[];
  reference: Step[];
  steps: Step[];
  before: Footprint;
  filled: Footprint;
  afterDestroy: Footprint;
  afterSecondDestroy: Footprint;
  byNameClosed: DeletedByName;
  byNameOpen: DeletedByName;
  durability?: Record<Durability, string[]>;
  worker?: WorkerAnswer;
  afterWorker: Footprint;
  queries?: QueryReport;
}

export type ContractReport = UnsupportedReport | SupportedReport;

/** One check a store failed: the contract (method) it belongs to, what was asked, and both answers in words. */
export interface ContractFailure {
  contract: string;
  check: string;
  expected: string;
  actual: string;
}

/** One store in one browser, as the page sends it to `storebench check` (collector.ts). */
export interface ContractOutcome {
  adapter: string;
  /** true, or why the store cannot run in this browser (not a failure). */
  supported: true | string;
  failures: ContractFailure[];
}
