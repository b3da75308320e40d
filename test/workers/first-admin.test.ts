// Issue 19, item 1: the first admin of a new deployment, made by `npm run admin:first`'s SQL against the
// real D1. They have no password until they choose one through the one-time link; the command makes
// nothing once an admin exists.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditLog, profiles, userRoles, users } from "~/db/schema";

import { firstAdminProblem, firstAdminStatements } from "../../scripts/first-admin-sql";
import { Visitor } from "./browser-like";
import { createUser, db } from "./fixtures";

const run = (statements: string[]) => env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
const FIRST = { email: "Abeba@Example.com", firstName: "Abeba", lastName: "O'Tadesse", language: "am" } as const;

describe("the first admin", () => {
  it("is made without a password, chooses one through the invite link once, then signs in to the admin dashboard", async () => {
    const { userId, token, statements } = await firstAdminStatements(FIRST);
    await run(statements);
    expect(await db.query.users.findFirst({ where: eq(users.id, userId) })).toMatchObject({ email: "abeba@example.com" });
    expect(await db.query.userRoles.findFirst({ where: eq(userRoles.userId, userId) })).toMatchObject({ role: "admin" });
    expect(await db.query.profiles.findFirst({ where: eq(profiles.userId, userId) })).toMatchObject({
      firstName: "Abeba",
      lastName: "O'Tadesse",
      preferredLanguage: "am",
    });
    const audit = await db.query.auditLog.findFirst({ where: eq(auditLog.targetId, userId) });
    expect(audit).toMatchObject({ action: "admin.account_created", actorId: null });

    // No password yet: signing in is refused until the link is used.
    expect((await new Visitor().post("/login", { email: FIRST.email, password: "Any-Password-1" })).status).toBe(401);
    const form = await new Visitor().get(`/invite?token=${token}`);
    expect(form.status).toBe(200);
    const chosen = await new Visitor().post(`/invite?token=${token}`, {
      token,
      password: "First-Admin-2026",
      confirmPassword: "First-Admin-2026",
    });
    expect(chosen.headers.get("Location")).toBe("/login");
    const again = await new Visitor().post(`/invite?token=${token}`, {
      token,
      password: "Other-Pass-88",
      confirmPassword: "Other-Pass-88",
    });
    expect(again.status).toBe(400);

    const visitor = new Visitor();
    const signIn = await visitor.post("/login", { email: FIRST.email, password: "First-Admin-2026" });
    const landed = await visitor.follow(signIn);
    expect(new URL(landed.url).pathname).toBe("/admin/dashboard");
    expect(landed.response.status).toBe(200);
  });

  it("is never made twice: once an admin exists, the command adds nobody", async () => {
    await createUser("admin");
    const admins = async () => (await db.select().from(userRoles).where(eq(userRoles.role, "admin"))).length;
    const before = await admins();
    const { userId, statements } = await firstAdminStatements({ ...FIRST, email: "second@example.com" });
    await run(statements);
    expect(await db.query.users.findFirst({ where: eq(users.id, userId) })).toBeUndefined();
    expect(await admins()).toBe(before);
  });

  it("refuses details that cannot make an account, naming the flag", () => {
    expect(firstAdminProblem({ ...FIRST, email: "not an email" })).toMatch(/--email/);
    expect(firstAdminProblem({ ...FIRST, firstName: " " })).toMatch(/--first-name/);
    expect(firstAdminProblem({ ...FIRST, lastName: "x".repeat(101) })).toMatch(/--last-name/);
    expect(firstAdminProblem({ ...FIRST, language: "fr" as "am" })).toMatch(/--language/);
    expect(firstAdminProblem(FIRST)).toBeNull();
  });
});
