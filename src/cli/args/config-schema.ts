/**
 * The schema of `storebench.config.json`, its one definition: `npm run schema` publishes it as
 * storebench.config.schema.json (a config's `$schema`), which config-file.ts checks every config
 * against. Its `sweep` keys are made from the sweep's flag table (sweep-flags.ts), so a new
 * flag has its key as soon as the schema is published again; a unit test fails until it is.
 */
import * as Type from '@sinclair/typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FlagSpec } from './flags.ts';
import { COUNT_FLAGS, LIST_FLAGS, NOT_IN_CONFIG, SWEEP_FLAGS } from './sweep-flags.ts';

/** Where the published schema lives, from the package's root. */
export const CONFIG_SCHEMA_PATH = 'storebench.config.schema.json';

/** The JSON type a flag's value takes in a config: its text, or what that text says as JSON. */
function flagValue(name: string, spec: FlagSpec): TSchema {
  const description = `--${name}${spec.example ? `, e.g. ${JSON.stringify(spec.example)}` : ''}`;
  if (spec.kind === 'switch')
    return Type.Boolean({
      description: `${description}: true gives the flag, false leaves it out`,
    });
  if (spec.kind === 'switch=')
    return Type.Union([Type.Boolean(), Type.String({ minLength: 1 })], {
      description: `${description}: true gives the flag bare, a string gives --${name}=VALUE`,
    });
  if (LIST_FLAGS.includes(name))
    return Type.Union(
      [
        Type.String({ minLength: 1 }),
        Type.Array(Type.Union([Type.String({ minLength: 1 }), Type.Number()]), { minItems: 1 }),
      ],
      { description: `${description}: a comma-separated string, or a list` },
    );
  if (COUNT_FLAGS.includes(name))
    return Type.Union([Type.Integer({ minimum: 0 }), Type.String({ minLength: 1 })], {
      description,
    });
  return Type.String({ minLength: 1, description });
}

/** The `sweep` object: one key per sweep flag but --config, each named as its flag. */
export function sweepKeysSchema(flags: Readonly<Record<string, FlagSpec>> = SWEEP_FLAGS) {
  const keys = Object.entries(flags).filter(([name]) => !NOT_IN_CONFIG.includes(name));
  return Type.Object(
    Object.fromEntries(keys.map(([name, spec]) => [name, Type.Optional(flagValue(name, spec))])),
    {
      additionalProperties: false,
      description:
        'The sweep\'s flags, each under its own name (see storebench sweep --help); a flag on the command line overrides its key here. E.g. {"browsers": "chromium", "suites": ["insert"], "budget": "2m"}',
    },
  );
}

const ConfigSchema = Type.Object(
  {
    $schema: Type.Optional(
      Type.String({ description: 'This schema: node_modules/storebench/' + CONFIG_SCHEMA_PATH }),
    ),
    adapters: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description:
          "Modules of this repository, relative to this file, each exporting a StoreAdapter (import type { StoreAdapter } from 'storebench'); their ids join storebench's own stores",
      }),
    ),
    sweep: Type.Optional(sweepKeysSchema()),
  },
  {
    additionalProperties: false,
    title: 'storebench.config.json',
    description:
      "What storebench runs from a store's own repository: its adapters, and the sweep's flags. storebench sweep and storebench check read ./storebench.config.json when it is there, or the file --config names.",
  },
);

/** The published file's text: what `npm run schema` writes and a unit test compares with what is committed. */
export function publishedConfigSchemaText(): string {
  return `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...ConfigSchema }, null, 2)}\n`;
}
