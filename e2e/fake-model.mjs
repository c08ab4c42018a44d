/**
 * A small model for the e2e suite's second server (E2E_CUBEY_MODEL=1 in serve.mjs): a real HTTP
 * server on 127.0.0.1 speaking the streamed chat-completions protocol. Offered tools, it asks
 * once for the look-up the question names (posts about a topic, a member, trending, the gallery);
 * given the results, it answers in Markdown from them, a few characters at a time, with usage
 * (after 3 s when the question says "slowly").
 */
import { createServer } from 'node:http';

const send = (res, json) => res.write(`data: ${JSON.stringify(json)}\n\n`);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The call a question asks for, or null. */
function callFor(question) {
  const q = question.toLowerCase();
  const member = /@([a-z0-9_]{1,30})/i.exec(question);
  if (member) return { name: 'member_profile', args: { username: member[1] } };
  if (/trending|popular/.test(q)) return { name: 'trending_posts', args: {} };
  if (/gallery|art\b/.test(q))
    return { name: 'gallery_items', args: { query: q.replace(/.*\b(about|of)\s+/, '') } };
  const about = /about\s+(.+?)\??$/.exec(q);
  if (about) return { name: 'search_posts', args: { query: about[1] } };
  return null;
}

/** A Markdown answer from the tool results the model was given. */
function answerFrom(results) {
  const lines = ['Here is what I found:', ''];
  for (const result of results) {
    let json;
    try {
      json = JSON.parse(result.content);
    } catch {
      continue;
    }
    const posts = Array.isArray(json.posts)
      ? json.posts
      : Array.isArray(json.recentPosts)
        ? json.recentPosts
        : [];
    for (const post of posts.slice(0, 4)) {
      lines.push(`- **${post.author}**: ${post.text.slice(0, 80)} (${post.likes} likes)`);
    }
    for (const item of (Array.isArray(json.items) ? json.items : []).slice(0, 4))
      lines.push(`- *${item.title}* by ${item.creator}`);
    if (json.username) lines.push(`- **${json.displayName}** (${json.username}): ${json.posts} posts`);
    if (json.error) lines.push(`- ${json.error}`);
  }
  if (lines.length === 2) lines.push('- nothing yet');
  return lines.join('\n');
}

export async function startFakeModel() {
  const server = createServer((req, res) => {
    answer(req, res).catch((error) => {
      console.error('fake model:', error);
      res.destroy();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}

async function answer(req, res) {
  {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Community look-up' } }] }),
      );
      return;
    }
    const question = [...body.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const results = body.messages.filter((m) => m.role === 'tool');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const call = body.tools && results.length === 0 ? callFor(question) : null;
    // "Slowly": a model that thinks a while over its look-ups before it writes.
    await pause(results.length > 0 && /\bslowly\b/i.test(question) ? 3000 : 300);
    if (call) {
      send(res, {
        choices: [
          {
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: 'call_1',
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.args) },
                },
              ],
            },
          },
        ],
      });
      send(res, { choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
    } else {
      const text = results.length
        ? answerFrom(results)
        : 'Hello! Ask me about posts, members, trends or the gallery.';
      for (const piece of text.match(/[\s\S]{1,12}/g) ?? []) {
        send(res, { choices: [{ delta: { content: piece } }] });
        await pause(15);
      }
    }
    send(res, { choices: [], usage: { prompt_tokens: 300, completion_tokens: 120, total_tokens: 420 } });
    res.end('data: [DONE]\n\n');
  }
}
