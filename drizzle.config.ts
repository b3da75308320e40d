import { defineConfig } from "drizzle-kit";

// Generates SQL migrations from app/db/schema.ts (the barrel of the area files under app/db/schema/); wrangler applies them (`wrangler d1 migrations apply`).
export default defineConfig({
  dialect: "sqlite",
  schema: "./app/db/schema.ts",
  out: "./migrations",
});
