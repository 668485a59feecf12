// Reads streams with an official Node client and prints what the client assembled.
//
// Usage: node judge.mjs <client>, with a JSON array of {"id", "base_url"} on standard input;
// prints one JSON line per case: {"id", "ok", "error", "shape", "value"}, where `shape` says
// how `value` reads ("responses", "chat", "anthropic": the client's final object in that API's
// shape; "neutral": {text, reasoning, tools, usage, stop} assembled by the client itself).
// Each case is bounded by a timeout; retries are off, the key is a dummy, and every URL is the
// test's loopback server.

const TIMEOUT_MS = Number(process.env.SSEKIT_CLIENT_TIMEOUT_MS || 20000);
const KEY = 'sk-ssekit-test';
// The AI SDK warns on standard error about the unknown model name; the test reads stdout only.
globalThis.AI_SDK_LOG_WARNINGS = false;

// What the client sends: the smallest valid request.
const MODEL = 'ssekit-model';

function errorText(e) {
  if (e == null) return 'unknown error';
  const name = e.name || e.constructor?.name || 'Error';
  return `${name}: ${e.message || String(e)}`.slice(0, 2000);
}

const clients = {
  // openai: client.responses.stream() + finalResponse()
  async 'openai-node.responses.stream'(base) {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: KEY, baseURL: base, maxRetries: 0, timeout: TIMEOUT_MS });
    const stream = client.responses.stream({ model: MODEL, input: 'hi' });
    for await (const _ of stream) {
      // every event goes through the client's own handling
    }
    return { shape: 'responses', value: await stream.finalResponse() };
  },

  // openai: client.chat.completions.stream() + finalChatCompletion()
  async 'openai-node.chat.stream'(base) {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: KEY, baseURL: base, maxRetries: 0, timeout: TIMEOUT_MS });
    const stream = client.chat.completions.stream({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const _ of stream) {
      // as above
    }
    return { shape: 'chat', value: await stream.finalChatCompletion() };
  },

  // @anthropic-ai/sdk: client.messages.stream() + finalMessage()
  async 'anthropic-node.messages.stream'(base) {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ apiKey: KEY, baseURL: base, maxRetries: 0, timeout: TIMEOUT_MS });
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const _ of stream) {
      // as above
    }
    return { shape: 'anthropic', value: await stream.finalMessage() };
  },

  // Non-streaming calls: the client's final object as the API returns it.
  async 'openai-node.responses.create.final'(base) {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: KEY, baseURL: base, maxRetries: 0, timeout: TIMEOUT_MS });
    return { shape: 'responses', value: await client.responses.create({ model: MODEL, input: 'hi' }) };
  },
  async 'openai-node.chat.create.final'(base) {
    const { default: OpenAI } = await import('openai');
    const client = new OpenAI({ apiKey: KEY, baseURL: base, maxRetries: 0, timeout: TIMEOUT_MS });
    const value = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
    });
    return { shape: 'chat', value };
  },
  async 'anthropic-node.messages.create.final'(base) {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({ apiKey: KEY, baseURL: base, maxRetries: 0, timeout: TIMEOUT_MS });
    const value = await client.messages.create({
      model: MODEL,
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'hi' }],
    });
    return { shape: 'anthropic', value };
  },
  // The Vercel AI SDK's providers through generateText, which validates each
  // response against the provider's own schema.
  async 'ai-sdk.openai.responses.final'(base) {
    const { createOpenAI } = await import('@ai-sdk/openai');
    return vercelFinal(createOpenAI({ apiKey: KEY, baseURL: base }).responses(MODEL));
  },
  async 'ai-sdk.openai.chat.final'(base) {
    const { createOpenAI } = await import('@ai-sdk/openai');
    return vercelFinal(createOpenAI({ apiKey: KEY, baseURL: base }).chat(MODEL));
  },
  async 'ai-sdk.anthropic.final'(base) {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    return vercelFinal(createAnthropic({ apiKey: KEY, baseURL: `${base}/v1` })(MODEL));
  },
  async 'ai-sdk.google.final'(base) {
    const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
    return vercelFinal(createGoogleGenerativeAI({ apiKey: KEY, baseURL: `${base}/v1beta` })('gemini-2.5-flash'));
  },

  // The Vercel AI SDK's providers, through streamText.
  async 'ai-sdk.openai.responses'(base) {
    const { createOpenAI } = await import('@ai-sdk/openai');
    return vercel(createOpenAI({ apiKey: KEY, baseURL: base }).responses(MODEL));
  },
  async 'ai-sdk.openai.chat'(base) {
    const { createOpenAI } = await import('@ai-sdk/openai');
    return vercel(createOpenAI({ apiKey: KEY, baseURL: base }).chat(MODEL));
  },
  async 'ai-sdk.anthropic'(base) {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    return vercel(createAnthropic({ apiKey: KEY, baseURL: `${base}/v1` })(MODEL));
  },
  async 'ai-sdk.google'(base) {
    const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
    return vercel(createGoogleGenerativeAI({ apiKey: KEY, baseURL: `${base}/v1beta` })('gemini-2.5-flash'));
  },
};

// streamText's full stream: text and reasoning deltas, the client-side tool calls (hosted tools
// the provider ran are not the caller's to answer), the finish part; an error part is a
// rejection.
async function vercel(model) {
  const { streamText } = await import('ai');
  const errors = [];
  const result = streamText({
    model,
    prompt: 'hi',
    maxOutputTokens: 1024,
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(TIMEOUT_MS),
    onError: ({ error }) => errors.push(error),
  });
  let text = '';
  let reasoning = '';
  const tools = [];
  let finish = null;
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        break;
      case 'reasoning-delta':
        reasoning += part.text;
        break;
      case 'tool-call':
        if (!part.providerExecuted) {
          const input = typeof part.input === 'string' ? part.input : JSON.stringify(part.input);
          tools.push({ name: part.toolName, arguments: input });
        }
        break;
      case 'finish':
        finish = part;
        break;
      case 'error':
        errors.push(part.error);
        break;
      default:
        break;
    }
  }
  if (errors.length > 0) throw errors[0];
  if (finish == null) throw new Error('no finish part');
  const usage = finish.totalUsage || {};
  return {
    shape: 'neutral',
    value: {
      text,
      reasoning,
      tools,
      usage: { input: usage.inputTokens ?? null, output: usage.outputTokens ?? null },
      stop: finish.finishReason ?? null,
    },
  };
}

// generateText's result: text, reasoning, the client-side tool calls, usage, finish reason.
async function vercelFinal(model) {
  const { generateText } = await import('ai');
  const result = await generateText({
    model,
    prompt: 'hi',
    maxOutputTokens: 1024,
    maxRetries: 0,
    abortSignal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const tools = [];
  for (const part of result.content) {
    if (part.type === 'tool-call' && !part.providerExecuted) {
      const input = typeof part.input === 'string' ? part.input : JSON.stringify(part.input);
      tools.push({ name: part.toolName, arguments: input });
    }
  }
  const usage = result.totalUsage || result.usage || {};
  return {
    shape: 'neutral',
    value: {
      text: result.text,
      reasoning: result.reasoningText ?? '',
      tools,
      usage: { input: usage.inputTokens ?? null, output: usage.outputTokens ?? null },
      stop: result.finishReason ?? null,
    },
  };
}

async function main() {
  const name = process.argv[2];
  const run = clients[name];
  if (run == null) {
    console.error(`unknown client ${name}; known: ${Object.keys(clients).join(', ')}`);
    process.exit(2);
  }
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  for (const { id, base_url: base } of JSON.parse(input)) {
    let line;
    try {
      const { shape, value } = await run(base);
      line = { id, ok: true, error: null, shape, value };
    } catch (e) {
      line = { id, ok: false, error: errorText(e), shape: null, value: null };
    }
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}

main().catch((e) => {
  console.error(errorText(e));
  process.exit(1);
});
