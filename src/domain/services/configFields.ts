// A service function's config form, from whichever shape its manifest uses (docs/node-services-protocol.md,
// "Manifests"): `config_schema` as a JSON-Schema-like object (`{type: 'object', properties}`, or a bare
// `{name: property}` map), `config_schema` as a LIST of the reference's ConfigField objects, and
// ConfigField objects in `ui_config.config_fields` (where the reference's own nodesets keep most of
// their defaults, e.g. a text source's `text`). All become one object schema with `properties`, so the
// editor has one form to render (panels/inspector/configSchema.ts) and new nodes get the defaults.
// A malformed field is left out with an issue naming its JSON path; the rest of the form stands.

export interface FieldIssue {
  /** JSON path inside the function (`$.config_schema[2].name`). */
  path: string;
  message: string;
}

export interface ConfigForm {
  /** `{type: 'object', properties, required?}`: what the catalog carries as `config_schema`. */
  schema: Record<string, unknown>;
  /** Every field's default (what a new node's config starts with). */
  defaults: Record<string, unknown>;
  /** Field names in form order (the catalog's `ui_config.config_fields`). */
  names: string[];
  issues: FieldIssue[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ConfigField `field_type` (or `type`) → the JSON-Schema property the form renders. */
const BY_FIELD_TYPE: Record<string, Obj> = {
  integer: { type: 'integer' },
  int: { type: 'integer' },
  number: { type: 'number' },
  float: { type: 'number' },
  slider: { type: 'number' },
  boolean: { type: 'boolean' },
  bool: { type: 'boolean' },
  toggle: { type: 'boolean' },
  checkbox: { type: 'boolean' },
  string: { type: 'string' },
  text: { type: 'string' },
  textarea: { type: 'string', format: 'textarea' },
  label: { type: 'string', readOnly: true },
};

/** `[{value, label}]` or `["a", "b"]` → the enum values (null when the list is unusable). */
function optionValues(options: unknown): unknown[] | null {
  if (!Array.isArray(options) || options.length === 0) return null;
  const values = options.map((o) => (isObj(o) && 'value' in o ? o.value : o));
  return values.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
    ? values
    : null;
}

/** One ConfigField object → [name, property], or the reason it cannot be a field. */
export function configFieldProperty(
  raw: unknown,
): { name: string; property: Obj } | { error: string; at: string } {
  if (!isObj(raw)) return { error: 'a config field must be an object with "name" and "field_type"', at: '' };
  if (typeof raw.name !== 'string' || raw.name === '')
    return { error: 'a config field needs a non-empty string "name"', at: '.name' };
  const kind =
    typeof raw.field_type === 'string' ? raw.field_type : typeof raw.type === 'string' ? raw.type : '';
  const property: Obj = { ...(BY_FIELD_TYPE[kind.toLowerCase()] ?? {}) };
  if (kind.toLowerCase() === 'select') {
    const values = optionValues(raw.options);
    if (values) property.enum = values;
  }
  // Kept for what the form does not interpret (port_list, unknown widgets): shown as raw JSON.
  if (kind) property['x-field-type'] = kind;
  if (typeof raw.label === 'string' && raw.label) property.title = raw.label;
  if (typeof raw.placeholder === 'string' && raw.placeholder) property.description = raw.placeholder;
  if (typeof raw.min === 'number') property.minimum = raw.min;
  if (typeof raw.max === 'number') property.maximum = raw.max;
  if (raw.default !== undefined && raw.default !== null) property.default = raw.default;
  return { name: raw.name, property };
}

/** Properties of an object-shaped `config_schema`: `{properties: {...}}` or a bare `{name: {type…}}` map. */
function objectProperties(schema: Obj): { props: Obj; required: string[] } {
  if (isObj(schema.properties))
    return {
      props: schema.properties,
      required: Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
    };
  // A bare map counts only when every value looks like a property (else it is an empty/odd schema).
  const entries = Object.entries(schema).filter(([k]) => k !== 'type' && k !== 'title' && k !== '$schema');
  if (
    entries.length > 0 &&
    entries.every(([, p]) => isObj(p) && ('type' in p || 'default' in p || 'enum' in p))
  )
    return { props: Object.fromEntries(entries), required: [] };
  return { props: {}, required: [] };
}

/**
 * The config form of one manifest function. `configSchema` is the function's `config_schema` (object
 * or list), `uiFields` its `ui_config.config_fields` (ConfigField objects, or plain names, which add
 * nothing). A field named twice keeps its first definition: `config_schema` wins over `ui_config`.
 */
export function configFormOf(configSchema: unknown, uiFields: unknown): ConfigForm {
  const properties: Obj = {};
  const issues: FieldIssue[] = [];
  let required: string[] = [];
  const addList = (list: unknown[], base: string) =>
    list.forEach((raw, i) => {
      if (typeof raw === 'string') return; // a name only (our SDK's old ui_config shape)
      const r = configFieldProperty(raw);
      if ('error' in r) issues.push({ path: `${base}[${i}]${r.at}`, message: r.error });
      else if (!(r.name in properties)) properties[r.name] = r.property;
    });
  if (Array.isArray(configSchema)) addList(configSchema, '$.config_schema');
  else if (isObj(configSchema)) {
    const o = objectProperties(configSchema);
    Object.assign(properties, o.props);
    required = o.required;
  } else if (configSchema !== undefined && configSchema !== null)
    issues.push({
      path: '$.config_schema',
      message: 'must be an object (JSON Schema) or a list of config fields',
    });
  if (Array.isArray(uiFields)) addList(uiFields, '$.ui_config.config_fields');
  const defaults: Obj = {};
  for (const [k, p] of Object.entries(properties))
    if (isObj(p) && 'default' in p && p.default !== undefined) defaults[k] = p.default;
  return {
    schema: { type: 'object', properties, ...(required.length ? { required } : {}) },
    defaults,
    names: Object.keys(properties),
    issues,
  };
}
