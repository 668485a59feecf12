#!/usr/bin/env python3
"""Generates the `view!` declarations of src/responses/ from the research
inventories (../shared/research/responses-{events,items}.json).

The output is committed and then edited by hand where the inventory is not
enough (docs, leniency); rerun only to see what changed in the inventory.
Usage: tools/gen_responses.py OUTDIR
"""
import json, os, sys, re

HERE = os.path.dirname(os.path.abspath(__file__))
RES = os.path.join(HERE, '..', '..', 'shared', 'research')
events = json.load(open(os.path.join(RES, 'responses-events.json')))
items = json.load(open(os.path.join(RES, 'responses-items.json')))
out = sys.argv[1]

def camel(s):
    return ''.join(p[:1].upper() + p[1:] for p in re.split(r'[._]', s) if p)

def event_name(e):
    t = e['type']
    if t == 'error':
        return 'ErrorEvent'
    if t.startswith('response.'):
        rest = t[len('response.'):]
        name = camel(rest)
        if '.' not in rest:
            name = 'Response' + camel(rest)
    else:
        name = camel(t)
    if (e.get('status') or '').startswith('legacy'):
        name = 'Legacy' + name
    return name

FIELD_DOCS = {
    'item_id': 'The ID of the output item.',
    'output_index': "The index of the output item in the response's `output`.",
    'content_index': "The index of the content part in the item's `content`.",
    'summary_index': "The index of the summary part in the reasoning item's `summary`.",
    'annotation_index': "The index of the annotation in the content part's `annotations`.",
    'sequence_number': 'The position of the event in the stream. Always optional: early-2025 streams and some proxies omit it.',
    'obfuscation': "Random padding that hides the delta's length (sent by the API, not declared in the spec).",
    'logprobs': 'Log probabilities of the tokens (absent unless requested).',
    'response': 'The response object, as it stands at this event.',
    'item': 'The output item (partial in `output_item.added`, final in `output_item.done`).',
    'part': 'The content part.',
    'annotation': 'The annotation added to the text.',
    'text': 'The complete text.',
    'code': 'The code.',
    'arguments': 'The arguments, as a JSON text in a string.',
    'command_index': "The index of the command in the shell call's action.",
    'name': 'The name of the called function.',
}

def field_doc(name, jtype, ev):
    if name in FIELD_DOCS:
        return FIELD_DOCS[name]
    if name == 'delta':
        return 'The text appended by this event.' if jtype == 'string' else 'The delta, as raw JSON.'
    return 'The `%s` field (%s).' % (name, jtype)

def rust_type(owner, name, jtype, detail):
    ref = (detail or {}).get('ref')
    items_ = (detail or {}).get('items')
    if jtype == 'string': return "JsonStr<'a>"
    if jtype == 'integer': return 'u64'
    if jtype == 'number': return 'f64'
    if jtype == 'boolean': return 'bool'
    if jtype == 'object':
        if ref == 'Response': return "Response<'a>"
        if ref == 'OutputItem': return "OutputItem<'a>"
        if ref == 'OutputContent' or name == 'part': return "ContentPart<'a>"
        if ref == 'Annotation' or name == 'annotation': return "Annotation<'a>"
        if name == 'error' and owner not in ('mcp_call',): return "ErrorInfo<'a>"
        return "RawJson<'a>"
    if jtype == 'array':
        if name == 'logprobs': return "Logprobs<'a>"
        if owner in ('message', 'reasoning') and name in ('content', 'summary'): return "List<'a, ContentPart<'a>>"
        if name == 'queries': return "List<'a, JsonStr<'a>>"
        return "RawJson<'a>"
    return "RawJson<'a>"

# Spec-required fields that real streams omit or null (responses-consumers.md).
LENIENT = {
    ('response.function_call_arguments.done', 'name'),
    ('response.output_text.delta', 'logprobs'),
    ('response.output_text.done', 'logprobs'),
    ('response.output_text.annotation.added', 'annotation'),
    ('response.output_text_annotation.added', 'annotation'),
    ('error', 'code'), ('error', 'message'), ('error', 'param'),
}
EXTRA = {
    'error': [('error', 'object')],
    'response.custom_tool_call_input.delta': [('call_id', 'string')],
    'response.completed': [('copilot_usage', 'object')],
}

GROUPS = {
    'text': ['text', 'refusal', 'content_part', 'annotation', 'output_text_annotation'],
    'reasoning': ['reasoning'],
    'calls': ['function_call', 'custom_tool'],
    'tools': ['web_search', 'file_search', 'code_interpreter', 'image_generation', 'mcp', 'shell', 'apply_patch'],
    'lifecycle': ['lifecycle', 'output_item'],
    'misc': ['error', 'audio', 'transport', 'backend_extension', 'websocket_beta', 'compaction'],
}
def group_of(e):
    g = e.get('subgroup') or e['group']
    if e['type'] == 'response.output_text_annotation.added': g = 'annotation'
    for file, gs in GROUPS.items():
        if g in gs: return file
    raise SystemExit('no group for %s (%s)' % (e['type'], g))

def wrap_doc(text, indent):
    text = ' '.join(text.split())
    lines, cur = [], ''
    for w in text.split(' '):
        if len(cur) + len(w) + 1 > 96 - len(indent) and cur:
            lines.append(cur); cur = w
        else:
            cur = (cur + ' ' + w).strip()
    if cur: lines.append(cur)
    return ''.join('%s/// %s\n' % (indent, l) for l in lines)

files = {k: [] for k in GROUPS}
listing = []
for e in events:
    t = e['type']
    fields = dict(e['fields'])
    fields.pop('type', None)
    for k in (e.get('observed_in_wild') or {}).get('keys', []):
        if k not in fields and k != 'type':
            fields[k] = 'string' if k == 'obfuscation' else 'object'
    for k, jt in EXTRA.get(t, []):
        fields.setdefault(k, jt)
    fields.setdefault('sequence_number', 'integer')
    # sequence_number last, the rest in inventory order
    names = [k for k in fields if k != 'sequence_number'] + ['sequence_number']
    name = event_name(e)
    doc = e.get('description') or ''
    if not e['in_spec']:
        doc += ' Not in the official union: %s.' % (e.get('status') or 'seen outside the spec')
    body = wrap_doc(doc, '    ')
    body += '    ///\n    /// `%s`\n' % t
    s = 'view! {\n' + body + "    pub struct %s<'a> = \"%s\" {\n" % (name, t)
    for k in names:
        jt = fields[k]
        req = k in e['required'] and k != 'sequence_number' and (t, k) not in LENIENT
        ty = rust_type(t, k, jt, (e.get('field_detail') or {}).get(k))
        s += wrap_doc(field_doc(k, jt, e), '        ')
        s += '        %s: %s %s,\n' % (k, 'req' if req else 'opt', ty)
    s += '    }\n}\n'
    files[group_of(e)].append(s)
    listing.append((name, t, group_of(e)))

HEAD = {
    'text': 'Output text, refusals, content parts and annotations.',
    'reasoning': 'Reasoning text and reasoning summaries.',
    'calls': 'Function calls and custom tool calls.',
    'tools': 'Built-in tools: web and file search, code interpreter, image generation, MCP, shell and apply_patch.',
    'lifecycle': 'The response lifecycle and output items.',
    'misc': 'Errors, audio, transport and backend events.',
}
os.makedirs(os.path.join(out, 'events'), exist_ok=True)
for f, blocks in files.items():
    with open(os.path.join(out, 'events', f + '.rs'), 'w') as fh:
        fh.write('//! %s\n\n' % HEAD[f])
        fh.write('#[allow(unused_imports)]\nuse super::super::{\n    Annotation, ContentPart, ErrorInfo, List, Logprobs, OutputItem, Response,\n};\n#[allow(unused_imports)]\nuse crate::json::{JsonStr, RawJson};\n\n')
        fh.write('\n'.join(blocks))
with open(os.path.join(out, 'events_list.txt'), 'w') as fh:
    for name, t, g in listing:
        fh.write('        %s(%s) = "%s",\n' % (name, name, t))

# items
def item_struct(kind, suffix, e, extra=()):
    name = camel(e['type']) + suffix
    fields = dict(e['fields']); fields.pop('type', None)
    for k in extra: fields.setdefault(k, 'string')
    body = wrap_doc((e.get('description') or 'A `%s` %s.' % (e['type'], kind)), '    ')
    body += '    ///\n    /// `"type": "%s"`\n' % e['type']
    s = 'view! {\n' + body + "    pub struct %s<'a> {\n" % name
    for k, jt in fields.items():
        ty = rust_type(e['type'], k, jt, (e.get('field_detail') or {}).get(k))
        s += wrap_doc(field_doc(k, jt, e) if k not in ('text','code','arguments','name') else 'The `%s` field (%s).' % (k, jt), '        ')
        s += '        %s: opt %s,\n' % (k, ty)
    s += '    }\n}\n'
    return name, s

with open(os.path.join(out, 'items_gen.rs'), 'w') as fh:
    for sec, kind, suffix in (('output_items', 'output item', 'Item'), ('content_parts', 'content part', 'Part'), ('annotations', 'annotation', '')):
        fh.write('// ---- %s\n' % sec)
        variants = []
        for e in items[sec]:
            extra = ('background', 'output_format', 'quality', 'size', 'revised_prompt') if e['type'] == 'image_generation_call' else ()
            name, s = item_struct(kind, suffix, e, extra)
            fh.write(s + '\n')
            variants.append('        %s(%s) = "%s",\n' % (camel(e['type']), name, e['type']))
        fh.write('// variants:\n' + ''.join('//' + v for v in variants) + '\n')
