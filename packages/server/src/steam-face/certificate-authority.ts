import { generateKeyPair, randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import { promisify } from "node:util";
import forge from "node-forge";
import { STEAM_HOSTS, type SteamHost } from "./steam-hosts.ts";

/**
 * The Steam face's own certificate authority (docs/design/steam-face.md#certificates): made once in the
 * data dir, so that a bot trusts it once (NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE) and keeps
 * trusting it across restarts. Leaf certificates for Steam's hosts are issued from it at each
 * start and live only in memory.
 */
export const STEAM_FACE_DIR = "steam-face";
export const CA_CERT_FILE = "ca.pem";
const CA_KEY_FILE = "ca-key.pem";
/** The machine's trusted roots plus the face's CA: Python's requests replaces its roots with the file it is given. */
export const CA_BUNDLE_FILE = "ca-bundle.pem";

const CA_LIFETIME_MS = 10 * 365 * 24 * 3600 * 1000;
/** Issued at each start, so a year is ample; TLS clients check it against the real time. */
const LEAF_LIFETIME_MS = 365 * 24 * 3600 * 1000;
/** A margin for clocks a little behind the server's. */
const BACKDATE_MS = 24 * 3600 * 1000;
const RSA_BITS = 2048;

const generateRsaKeyPair = promisify(generateKeyPair);

export interface CertificateAuthority {
  /** Where the CA certificate is, for NODE_EXTRA_CA_CERTS. */
  certFile: string;
  /** Where the roots plus the CA are, for REQUESTS_CA_BUNDLE and SSL_CERT_FILE. */
  bundleFile: string;
  certPem: string;
  certificate: forge.pki.Certificate;
  privateKey: forge.pki.rsa.PrivateKey;
}

export interface LeafCertificate {
  cert: string;
  key: string;
}

/** The CA in `dataDir`, made on first use; two processes making it at once agree on one. */
export async function loadCertificateAuthority(dataDir: string): Promise<CertificateAuthority> {
  const folder = join(dataDir, STEAM_FACE_DIR);
  const existing = await readCertificateAuthority(folder);
  if (existing) return existing;
  await mkdir(dataDir, { recursive: true });
  // Written whole into a private folder, then renamed into place: a reader never finds a
  // certificate without its key, and of two processes racing the first rename wins.
  const draft = await mkdtemp(join(dataDir, `.${STEAM_FACE_DIR}-`));
  // The certificate is for every user whose bots trust it; the key file stays private (0600).
  await chmod(draft, 0o755);
  try {
    const { certPem, keyPem } = await createCertificateAuthority();
    await writeFile(join(draft, CA_KEY_FILE), keyPem, { mode: 0o600 });
    await writeFile(join(draft, CA_CERT_FILE), certPem);
    await writeFile(join(draft, CA_BUNDLE_FILE), bundleOf(certPem));
    await rename(draft, folder).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    });
  } finally {
    await rm(draft, { recursive: true, force: true });
  }
  const made = await readCertificateAuthority(folder);
  if (!made) throw new Error(`${folder} holds no certificate authority after making one`);
  return made;
}

/** A certificate for each of Steam's hosts, signed by the CA. */
export async function issueLeafCertificates(
  authority: CertificateAuthority,
  now = new Date(),
): Promise<Record<SteamHost, LeafCertificate>> {
  const entries = await Promise.all(
    STEAM_HOSTS.map(async (host) => [host, await issueLeaf(authority, host, now)] as const),
  );
  return Object.fromEntries(entries) as Record<SteamHost, LeafCertificate>;
}

async function readCertificateAuthority(folder: string): Promise<CertificateAuthority | undefined> {
  let certPem: string;
  let keyPem: string;
  try {
    certPem = await readFile(join(folder, CA_CERT_FILE), "utf8");
    keyPem = await readFile(join(folder, CA_KEY_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return {
    certFile: join(folder, CA_CERT_FILE),
    bundleFile: join(folder, CA_BUNDLE_FILE),
    certPem,
    certificate: forge.pki.certificateFromPem(certPem),
    privateKey: forge.pki.privateKeyFromPem(keyPem),
  };
}

/** Node's own key generation (a worker thread), handed to forge for the certificate's structure. */
async function newKeyPair(): Promise<{ keyPem: string; publicKey: forge.pki.rsa.PublicKey }> {
  const { publicKey, privateKey } = await generateRsaKeyPair("rsa", {
    modulusLength: RSA_BITS,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { keyPem: privateKey, publicKey: forge.pki.publicKeyFromPem(publicKey) };
}

async function createCertificateAuthority(): Promise<{ certPem: string; keyPem: string }> {
  const { keyPem, publicKey } = await newKeyPair();
  const now = Date.now();
  const name = [
    { name: "commonName", value: "skinmarket sandbox Steam face CA" },
    { name: "organizationName", value: "skinmarket sandbox" },
  ];
  const certificate = certificateOf(publicKey, now, CA_LIFETIME_MS);
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions([
    // pathLenConstraint 0: it signs the leaves and nothing that could sign further.
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  certificate.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(certificate), keyPem };
}

async function issueLeaf(
  authority: CertificateAuthority,
  host: SteamHost,
  now: Date,
): Promise<LeafCertificate> {
  const { keyPem, publicKey } = await newKeyPair();
  const certificate = certificateOf(publicKey, now.getTime(), LEAF_LIFETIME_MS);
  certificate.setSubject([{ name: "commonName", value: host }]);
  certificate.setIssuer(authority.certificate.subject.attributes);
  certificate.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    { name: "subjectAltName", altNames: [{ type: 2, value: host }] },
    { name: "subjectKeyIdentifier" },
    {
      name: "authorityKeyIdentifier",
      keyIdentifier: authority.certificate.generateSubjectKeyIdentifier().getBytes(),
    },
  ]);
  certificate.sign(authority.privateKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(certificate), key: keyPem };
}

function certificateOf(
  publicKey: forge.pki.rsa.PublicKey,
  now: number,
  lifetimeMs: number,
): forge.pki.Certificate {
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = publicKey;
  certificate.serialNumber = serialNumber();
  certificate.validity.notBefore = new Date(now - BACKDATE_MS);
  certificate.validity.notAfter = new Date(now + lifetimeMs);
  return certificate;
}

/** A positive serial of 16 random bytes in hex, as RFC 5280 section 4.1.2.2 asks (at most 20 octets). */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString("hex");
}

function bundleOf(certPem: string): string {
  return `${[...rootCertificates, certPem.trim()].join("\n")}\n`;
}
