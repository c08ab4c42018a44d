/**
 * Password hashing: argon2id (the library's default algorithm) at OWASP's baseline, 19 MiB,
 * 2 passes, 1 lane. Also counts the runs, so tests can tell that a refused call never hashed.
 */
import { hash, verify } from '@node-rs/argon2';

const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

let argon2Runs = 0;
/**
 * How many argon2 computations (hashes and verifications) this process has run. Tests read it to
 * check that every way through a check costs the same work, whether the account exists or not.
 */
export function argon2RunCount(): number {
  return argon2Runs;
}

export function hashPassword(password: string): Promise<string> {
  argon2Runs += 1;
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  argon2Runs += 1;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | null = null;
/** Spends the same time as a real check, so a missing account cannot be told apart by timing. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('cubes-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
