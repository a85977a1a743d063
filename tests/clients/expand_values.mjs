// The completion-value round trip with the official TypeScript SDK
// (@modelcontextprotocol/sdk, the v1 line) and client
// (@modelcontextprotocol/client, the v2 line), pinned in package.json:
// parses the library's completion/complete result with the SDK's schema,
// substitutes each value into the template with each line's own
// UriTemplate (RFC 6570), and writes DIR/expanded_ts_v1.json and
// DIR/expanded_ts_v2.json ([{"value", "uri"}]), which
// `cargo run --example completion_values -- read` reads back through the
// library.
//
// Usage: node expand_values.mjs DIR
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompleteResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { UriTemplate as UriTemplateV1 } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { UriTemplate as UriTemplateV2 } from '@modelcontextprotocol/client';

const dir = process.argv[2];
const sample = JSON.parse(readFileSync(join(dir, 'completion_values.json'), 'utf8'));
const parsed = CompleteResultSchema.parse(sample.result);
const values = parsed.completion.values;
if (values.length === 0 || values.some((v) => !sample.offered.includes(v))) {
  throw new Error(`sent values not offered: ${JSON.stringify(values)}`);
}
for (const [name, UriTemplate] of [
  ['v1', UriTemplateV1],
  ['v2', UriTemplateV2],
]) {
  const template = new UriTemplate(sample.template);
  const expanded = values.map((v) => ({ value: v, uri: template.expand({ ...sample.context, file: v }) }));
  writeFileSync(join(dir, `expanded_ts_${name}.json`), JSON.stringify(expanded));
  console.log(`typescript ${name}: ${expanded.length} values expanded with UriTemplate`);
}
