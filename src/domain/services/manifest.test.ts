// Manifests as the reference's services really send them (docs/node-services-protocol.md): config
// forms from a ConfigField list (`field_type`, or `type`), from ConfigFields in `ui_config`, from a
// JSON-Schema object; a malformed function or container skipped with its JSON path, the rest kept.
import { describe, expect, it } from 'vitest';
import { configFormOf } from './configFields.ts';
import { parseServiceManifest, serviceFunctionSpec } from './manifest.ts';

/** A ConfigField as the reference serializes it (every key present, nulls included). */
const field = (name: string, fieldType: string, extra: Record<string, unknown> = {}) => ({
  name,
  field_type: fieldType,
  label: '',
  default: null,
  min: null,
  max: null,
  step: null,
  options: null,
  placeholder: '',
  show_persist_toggle: false,
  section: '',
  on_card: true,
  unset_label: '',
  ...extra,
});

const fn = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: '',
  input_ports: [],
  output_ports: [],
  config_schema: {},
  ui_config: {},
  ...extra,
});

describe('config forms', () => {
  it('a ConfigField list becomes properties with types, bounds, options and defaults', () => {
    const form = configFormOf(
      [
        field('min_num_prompt_points', 'integer', { default: 2 }),
        field('use_lsv', 'boolean', { default: true }),
        field('temperature', 'slider', { min: 0, max: 2, default: 0.7, label: 'Temperature' }),
        field('format', 'select', {
          default: 'brief',
          options: [
            { value: 'brief', label: 'Brief' },
            { value: 'detailed', label: 'Detailed' },
          ],
        }),
        { name: 'legacy', type: 'string', default: 'x' }, // `type` instead of `field_type`
        field('ports', 'port_list'),
      ],
      undefined,
    );
    expect(form.schema.properties).toEqual({
      min_num_prompt_points: { type: 'integer', 'x-field-type': 'integer', default: 2 },
      use_lsv: { type: 'boolean', 'x-field-type': 'boolean', default: true },
      temperature: {
        type: 'number',
        'x-field-type': 'slider',
        title: 'Temperature',
        minimum: 0,
        maximum: 2,
        default: 0.7,
      },
      format: { enum: ['brief', 'detailed'], 'x-field-type': 'select', default: 'brief' },
      legacy: { type: 'string', 'x-field-type': 'string', default: 'x' },
      ports: { 'x-field-type': 'port_list' },
    });
    expect(form.defaults).toEqual({
      min_num_prompt_points: 2,
      use_lsv: true,
      temperature: 0.7,
      format: 'brief',
      legacy: 'x',
    });
    expect(form.names).toEqual([
      'min_num_prompt_points',
      'use_lsv',
      'temperature',
      'format',
      'legacy',
      'ports',
    ]);
    expect(form.issues).toEqual([]);
  });

  it('ConfigFields in ui_config.config_fields add fields (config_schema {}); config_schema wins on a clash', () => {
    const text = field('text', 'textarea', {
      label: 'Input Text',
      default: 'The weather today',
      placeholder: 'Enter…',
    });
    expect(configFormOf({}, [text])).toMatchObject({
      schema: {
        properties: {
          text: {
            type: 'string',
            format: 'textarea',
            title: 'Input Text',
            description: 'Enter…',
            default: 'The weather today',
          },
        },
      },
      defaults: { text: 'The weather today' },
    });
    const both = configFormOf({ type: 'object', properties: { text: { type: 'string', default: 'a' } } }, [
      text,
    ]);
    expect(both.defaults).toEqual({ text: 'a' });
    // Plain names (our SDK's older ui_config) add nothing.
    expect(configFormOf({}, ['text']).names).toEqual([]);
  });

  it('a bare {name: property} map counts as properties; a malformed field is left out with its path', () => {
    expect(configFormOf({ size: { type: 'integer', default: 5 } }, undefined).defaults).toEqual({ size: 5 });
    const form = configFormOf(
      [field('ok', 'integer', { default: 1 }), { field_type: 'integer' }, 'name-only'],
      [7],
    );
    expect(form.names).toEqual(['ok']);
    expect(form.issues).toEqual([
      { path: '$.config_schema[1].name', message: 'a config field needs a non-empty string "name"' },
      {
        path: '$.ui_config.config_fields[0]',
        message: 'a config field must be an object with "name" and "field_type"',
      },
    ]);
    expect(configFormOf('nope', undefined).issues).toEqual([
      { path: '$.config_schema', message: 'must be an object (JSON Schema) or a list of config fields' },
    ]);
  });
});

describe('parseServiceManifest', () => {
  it('skips a malformed function (and container) with an issue naming it and its JSON path', () => {
    const r = parseServiceManifest({
      name: 'eqa',
      version: 1.0,
      functions: [
        fn('eqa__ok', { config_schema: [field('n', 'integer', { default: 3 })] }),
        fn('eqa__bad', { input_ports: [{ wire_type: 'TEXT' }] }),
        { description: 'no name' },
        fn('eqa__ok'),
        fn('eqa__fields', { config_schema: [{ field_type: 'integer' }] }),
      ],
      containers: [{ id: 'mem', states: {} }, { label: 'no id' }],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.manifest.version).toBe('1');
    expect(r.manifest.functions.map((f) => f.name)).toEqual(['eqa__ok', 'eqa__fields']);
    expect(r.manifest.containers.map((c) => c.id)).toEqual(['mem']);
    expect(r.issues.map((i) => [i.path, i.function, i.message.split(':')[0]])).toEqual([
      ['$.functions[1].input_ports[0].name', 'eqa__bad', 'function skipped'],
      ['$.functions[2].name', undefined, 'function skipped'],
      ['$.functions[3].name', 'eqa__ok', 'function skipped'],
      ['$.functions[4].config_schema[0].name', 'eqa__fields', 'config field left out'],
      ['$.containers[1].id', undefined, 'container skipped'],
    ]);
  });

  it('fails as a whole only without a name or with functions that are not a list', () => {
    expect(parseServiceManifest({ functions: [] })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^\$\.name: /),
    });
    expect(parseServiceManifest({ name: 'x', functions: {} })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^\$\.functions: /),
    });
  });

  it('the catalog entry carries the normalized form and its defaults', () => {
    const spec = serviceFunctionSpec(
      'example',
      fn('example__source', {
        ui_config: { color: 'sky', config_fields: [field('text', 'textarea', { default: 'hello' })] },
      }) as never,
    );
    expect(spec.default_config).toEqual({ text: 'hello' });
    expect(spec.ui_config?.config_fields).toEqual(['text']);
    expect((spec.config_schema as { properties: object }).properties).toHaveProperty('text');
  });
});
