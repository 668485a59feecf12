// A multi-turn exchange with a tool call, through the gateway of tests/gateway, as a user of an
// official Node client writes it: ask with a tool, run the call the model asks for, send the result
// back tied to the call's id, print the final answer.
//
// Usage: node gateway_tools.mjs <client> <gateway base URL>; prints one JSON line:
// {"ok", "error", "call": {"id", "name", "args"}, "text"}. Retries are off; each request has a
// timeout; the key is the test's client key (the gateway must not pass it on).

const TIMEOUT_MS = 20000;
const KEY = 'sk-client-key';
const MODEL = 'client-model';
const QUESTION = 'What is the weather in Paris?';
const RESULT = '18C and sunny';
const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string', description: 'The city' } },
  required: ['city'],
};

const clients = {
  // Responses, streamed both turns: the function_call item goes back with its output.
  async responses(base) {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: KEY, baseURL: `${base}/v1`, maxRetries: 0, timeout: TIMEOUT_MS });
    const tools = [{ type: 'function', name: 'get_weather', description: 'The weather', parameters: SCHEMA, strict: false }];
    const input = [{ role: 'user', content: QUESTION }];
    const first = client.responses.stream({ model: MODEL, input, tools });
    for await (const _ of first) {
      // the client's own handling of every event
    }
    const r1 = await first.finalResponse();
    const call = r1.output.find((i) => i.type === 'function_call');
    // Every output item goes back (reasoning included, as stateless clients do), then the result.
    const input2 = [...input, ...r1.output, { type: 'function_call_output', call_id: call.call_id, output: RESULT }];
    const second = client.responses.stream({ model: MODEL, input: input2, tools });
    for await (const _ of second) {
      // as above
    }
    const r2 = await second.finalResponse();
    return { call: { id: call.call_id, name: call.name, args: JSON.parse(call.arguments) }, text: r2.output_text };
  },

  // Chat Completions: the first turn streamed, the second not.
  async chat(base) {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: KEY, baseURL: `${base}/v1`, maxRetries: 0, timeout: TIMEOUT_MS });
    const tools = [{ type: 'function', function: { name: 'get_weather', description: 'The weather', parameters: SCHEMA } }];
    const messages = [{ role: 'user', content: QUESTION }];
    const first = client.chat.completions.stream({ model: MODEL, messages, tools });
    for await (const _ of first) {
      // as above
    }
    const m1 = (await first.finalChatCompletion()).choices[0].message;
    const call = m1.tool_calls[0];
    const messages2 = [...messages, m1, { role: 'tool', tool_call_id: call.id, content: RESULT }];
    const c2 = await client.chat.completions.create({ model: MODEL, messages: messages2, tools });
    return {
      call: { id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments) },
      text: c2.choices[0].message.content,
    };
  },

  // Anthropic Messages: the first turn streamed, the second not.
  async anthropic(base) {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ apiKey: KEY, baseURL: base, maxRetries: 0, timeout: TIMEOUT_MS });
    const tools = [{ name: 'get_weather', description: 'The weather', input_schema: SCHEMA }];
    const messages = [{ role: 'user', content: QUESTION }];
    const first = client.messages.stream({ model: MODEL, max_tokens: 1024, messages, tools });
    for await (const _ of first) {
      // as above
    }
    const m1 = await first.finalMessage();
    const use = m1.content.find((b) => b.type === 'tool_use');
    const messages2 = [
      ...messages,
      { role: 'assistant', content: m1.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: RESULT }] },
    ];
    const m2 = await client.messages.create({ model: MODEL, max_tokens: 1024, messages: messages2, tools });
    const text = m2.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
    return { call: { id: use.id, name: use.name, args: use.input }, text };
  },
};

const [name, base] = process.argv.slice(2);
try {
  const out = await clients[name](base);
  console.log(JSON.stringify({ ok: true, ...out }));
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: `${e?.name}: ${e?.message}`.slice(0, 2000) }));
}
