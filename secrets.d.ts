// Secrets live outside wrangler.toml (`wrangler secret put` in production, .dev.vars locally), so
// `wrangler types` cannot see them; they are declared here and validated at startup (env.server.ts).
interface Env {
  SESSION_SECRET: string;
}
declare namespace Cloudflare {
  interface Env {
    SESSION_SECRET: string;
  }
}
