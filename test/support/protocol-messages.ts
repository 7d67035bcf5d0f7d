/**
 * Checking protocol output as the platforms read it: every stdout line parsed as JSON and
 * validated, an Airbyte line against the official Airbyte protocol schema
 * (/work/shared/airbyte-protocol, unchanged; MIT) as `AirbyteMessage` and as its type's
 * sub-message, a Singer line against the shapes of the Meltano SDK's message classes
 * (/work/shared/singer/messages.py: SCHEMA stream/schema/key_properties, RECORD
 * stream/record, STATE value).
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { z } from 'zod';

const PROTOCOL = '/work/shared/airbyte-protocol/airbyte_protocol.yaml';
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;

function airbyteAjv(): Ajv {
  const ajv = new Ajv({ strict: true, allErrors: true });
  addFormats(ajv);
  // The schema's own annotations, keywords strict mode must know: the type its Java code
  // generator maps a field to, and the protocol's version at the top.
  ajv.addKeyword({ keyword: 'existingJavaType', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'version', schemaType: 'string' });
  ajv.addSchema(parse(readFileSync(PROTOCOL, 'utf8')) as object, 'airbyte');
  return ajv;
}

const ajv = airbyteAjv();

/** The sub-message each message type carries, by its key in `AirbyteMessage`. */
const SUB_MESSAGES: Record<string, [key: string, definition: string]> = {
  RECORD: ['record', 'AirbyteRecordMessage'],
  STATE: ['state', 'AirbyteStateMessage'],
  LOG: ['log', 'AirbyteLogMessage'],
  SPEC: ['spec', 'ConnectorSpecification'],
  CONNECTION_STATUS: ['connectionStatus', 'AirbyteConnectionStatus'],
  CATALOG: ['catalog', 'AirbyteCatalog'],
  TRACE: ['trace', 'AirbyteTraceMessage'],
};

function check(definition: string, value: unknown): string[] {
  const validate = ajv.getSchema(`airbyte#/definitions/${definition}`);
  if (!validate) throw new Error(`no definition ${definition}`);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${definition}${e.instancePath} ${e.message}`);
}

export type AirbyteMessage = {
  type: string;
  record?: { stream: string; data: Record<string, unknown>; emitted_at: number };
  state?: { type: string; stream: { stream_descriptor: { name: string }; stream_state: Record<string, unknown> } };
  trace?: {
    type: string;
    error?: { message: string; failure_type: string; stream_descriptor?: { name: string } };
    stream_status?: { stream_descriptor: { name: string }; status: string };
  };
  connectionStatus?: { status: string; message: string };
  catalog?: { streams: Record<string, unknown>[] };
  spec?: { connectionSpecification: Record<string, unknown> };
};

/** Every stdout line as an Airbyte message; a line that is not JSON or breaks the schema throws, naming it. */
export function airbyteMessages(stdout: string): AirbyteMessage[] {
  return lines(stdout).map((line, index) => {
    const message = JSON.parse(line) as AirbyteMessage;
    const errors = check('AirbyteMessage', message);
    const sub = SUB_MESSAGES[message.type];
    if (!sub) errors.push(`type ${message.type} is not one a source sends`);
    else {
      const value = (message as Record<string, unknown>)[sub[0]];
      if (value === undefined) errors.push(`${message.type} without ${sub[0]}`);
      else errors.push(...check(sub[1], value));
    }
    if (errors.length > 0)
      throw new Error(
        `stdout line ${index + 1} is not a valid Airbyte message: ${errors.join('; ')}: ${line.slice(0, 300)}`,
      );
    return message;
  });
}

const singerMessage = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('SCHEMA'),
    stream: z.string(),
    schema: z.record(z.string(), z.unknown()),
    key_properties: z.array(z.string()),
    bookmark_properties: z.array(z.string()).optional(),
  }),
  z.strictObject({
    type: z.literal('RECORD'),
    stream: z.string(),
    record: z.record(z.string(), z.unknown()),
    version: z.int().optional(),
    time_extracted: z.iso.datetime({ offset: true }).optional(),
  }),
  z.strictObject({ type: z.literal('STATE'), value: z.record(z.string(), z.unknown()) }),
]);
export type SingerMessage = z.infer<typeof singerMessage>;

/** Every stdout line as a Singer message of the SDK's shapes; anything else throws, naming the line. */
export function singerMessages(stdout: string): SingerMessage[] {
  return lines(stdout).map((line, index) => {
    const parsed = singerMessage.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`stdout line ${index + 1} is not a Singer message: ${parsed.error.message}`);
    return parsed.data;
  });
}

/** The lines of a finished process's stdout (a killed one's: up to its last whole line, see `wholeLines`). */
function lines(stdout: string): string[] {
  if (stdout !== '' && !stdout.endsWith('\n')) throw new Error('stdout ends mid-line');
  return stdout.split('\n').filter((line) => line.length > 0);
}

/** What a process killed mid-write printed, up to its last whole line. */
export function wholeLines(stdout: string): string {
  return stdout.slice(0, stdout.lastIndexOf('\n') + 1);
}
