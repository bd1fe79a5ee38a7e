import { randomBytes } from "node:crypto";
import type { AccessLevel } from "../../storage/schema.ts";
import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { hashPassword } from "../password-hash.ts";
import { generateSecret } from "../secrets.ts";
import { createApiToken } from "../tokens/create-api-token.ts";
import { constraintName, inTransaction, noteNoMarketChange, sqlState } from "../transaction.ts";
import { openUserAccounts } from "../wallet/ledger.ts";

export interface CreateUserInput {
  nickname?: string;
  accessLevel?: AccessLevel;
  password?: string;
}

export interface CreatedUser {
  userId: number;
  nickname: string;
  accessLevel: AccessLevel;
  /** The password as given or generated: answered once, stored only as an argon2id hash. */
  password: string;
  token: string;
  tokenId: number;
}

/** A marketplace user with the ledger accounts of docs/design/domain-model.md#users-and-secrets and a first API token. */
export async function createUser(ctx: DomainContext, input: CreateUserInput): Promise<Result<CreatedUser>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin creates users");
  const nickname = (input.nickname ?? `trader-${randomBytes(4).toString("hex")}`).normalize("NFC");
  const accessLevel = input.accessLevel ?? "developer";
  const password = input.password ?? generateSecret().slice(0, 20);
  const passwordHash = await hashPassword(password);
  try {
    return await inTransaction(ctx, async (tx) => {
      noteNoMarketChange(tx);
      const now = tx.clock.now();
      const { user_id: userId } = await tx.db
        .insertInto("users")
        .values({
          nickname,
          password_hash: passwordHash,
          access_level: accessLevel,
          created_at: now,
          updated_at: now,
        })
        .returning("user_id")
        .executeTakeFirstOrThrow();
      await openUserAccounts(tx, userId);
      await recordAudit(tx, {
        action: "user.create",
        subject: `user:${userId}`,
        details: { nickname, access_level: accessLevel },
      });
      const issued = await createApiToken(tx, { userId });
      if (!issued.ok) return issued;
      return ok({
        userId,
        nickname,
        accessLevel,
        password,
        token: issued.value.token,
        tokenId: issued.value.tokenId,
      });
    });
  } catch (error) {
    if (sqlState(error) === "23505" && constraintName(error) === "users_nickname_key") {
      return invalidArgument("nickname", `"${nickname}" is already taken`);
    }
    throw error;
  }
}
