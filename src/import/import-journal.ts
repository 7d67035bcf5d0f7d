/**
 * The local journal of one import: partition -> attempts, each with its Idempotency-Key,
 * receipt URL and status. Every change is written (`writeFileAtomically`: private, fsynced) BEFORE
 * the request it announces, so a run killed at any point resumes by replaying the same key or
 * polling the known receipt, never by importing a partition twice.
 *
 * It only guards operations that may have created prompts: a journal whose every attempt was
 * refused or ended in a failed (atomic) receipt holds nothing to resume, so it never stands in
 * the way of a run for another website, mode or classification (docs/prompt-import.md#the-journal).
 */
import { readFile } from 'node:fs/promises';
import { AivisError, ConfigError, ExitCode } from '../errors.ts';
import { writeFileAtomically } from '../files/atomic-write.ts';

/**
 * `refused`: the service answered the POST with a 4xx other than 409 (forbidden, not found,
 * invalid request, ...), so no operation exists for the attempt; `failed`: a failed receipt,
 * which created nothing either (spec 3 rule 3: atomic).
 */
export type AttemptStatus = 'sending' | 'accepted' | 'succeeded' | 'failed' | 'refused';

/** Item results of a terminal receipt, counted; the journal never holds prompt content. */
export type ResultCounts = Record<string, number>;

export interface JournalAttempt {
  idempotency_key: string;
  status: AttemptStatus;
  /** Path of the receipt (the `Location` of the POST answer). */
  receipt_url?: string;
  import_id?: string;
  error?: { code: string; retryable: boolean };
  counts?: ResultCounts;
  updated_at: string;
}

export interface JournalPartition {
  first_line: number;
  last_line: number;
  items: number;
  bytes: number;
  body_sha256: string;
  attempts: JournalAttempt[];
}

export interface JournalData {
  version: 1;
  website_id: string;
  validate_only: boolean;
  classification: string;
  /** When the journal was started; salts the keys of validations (see idempotency-key.ts). */
  created_at: string;
  /** By `Partition.slot`: a file's partition number, a table's or query's body digest. */
  partitions: Record<string, JournalPartition>;
}

/** Whether an attempt certainly created no prompt: nothing about it is left to resume. */
export function createdNothing(attempt: JournalAttempt): boolean {
  return attempt.status === 'refused' || attempt.status === 'failed';
}

export class ImportJournal {
  readonly path: string;
  readonly data: JournalData;

  /** False for a run that keeps no journal (a warehouse source without `--journal`): the destination's receipts are its memory. */
  private readonly durable: boolean;

  private constructor(path: string, data: JournalData, durable = true) {
    this.path = path;
    this.data = data;
    this.durable = durable;
  }

  /** A journal held in memory for this run only, never written. */
  static unsaved(expect: Omit<JournalData, 'version' | 'partitions' | 'created_at'>, now: Date): ImportJournal {
    return new ImportJournal(
      '(no journal)',
      { version: 1, ...expect, created_at: now.toISOString(), partitions: {} },
      false,
    );
  }

  /**
   * Opens the journal at `path`, or starts an empty one; refuses one written for another
   * import unless that one created nothing (then it is replaced on the first record).
   */
  static async open(
    path: string,
    expect: Omit<JournalData, 'version' | 'partitions' | 'created_at'>,
    now: Date,
  ): Promise<ImportJournal> {
    const fresh = () =>
      new ImportJournal(path, { version: 1, ...expect, created_at: now.toISOString(), partitions: {} });
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fresh();
      throw new ConfigError(`journal ${path} cannot be read: ${(error as Error).message}`);
    }
    let data: JournalData;
    try {
      data = JSON.parse(text) as JournalData;
    } catch {
      throw new ConfigError(`journal ${path} is not valid JSON; move it away to start a new import`);
    }
    for (const key of ['website_id', 'validate_only', 'classification'] as const) {
      if (data[key] !== expect[key]) {
        if (Object.values(data.partitions ?? {}).every((p) => p.attempts.every(createdNothing))) return fresh();
        throw new ConfigError(
          `journal ${path} belongs to another import (${key} ${JSON.stringify(data[key])}, this run ${JSON.stringify(expect[key])}); pass another --journal path`,
        );
      }
    }
    return new ImportJournal(path, data);
  }

  /** The partition recorded under `slot` (see `Partition.slot`). */
  partition(slot: number | string): JournalPartition | undefined {
    return this.data.partitions[String(slot)];
  }

  /** Records a partition's first attempt, or a change of its latest one, durably. */
  async record(
    slot: number | string,
    partition: Omit<JournalPartition, 'attempts'>,
    attempt: Omit<JournalAttempt, 'updated_at'>,
    now: Date,
  ): Promise<void> {
    const entry = { ...partition, attempts: this.data.partitions[String(slot)]?.attempts ?? [] };
    this.data.partitions[String(slot)] = entry;
    const stamped = { ...attempt, updated_at: now.toISOString() };
    const last = entry.attempts.at(-1);
    if (last && last.idempotency_key === attempt.idempotency_key) entry.attempts[entry.attempts.length - 1] = stamped;
    else entry.attempts.push(stamped);
    await this.save();
  }

  /** The request it announces is only sent once this resolves, so a failure here sends nothing. */
  private async save(): Promise<void> {
    if (!this.durable) return;
    try {
      await writeFileAtomically(this.path, `${JSON.stringify(this.data, null, 2)}\n`);
    } catch (error) {
      throw new AivisError(
        `cannot write the journal ${this.path} (${(error as Error).message}); pass --journal with a path in a writable folder`,
        ExitCode.Failure,
        { cause: error },
      );
    }
  }
}
