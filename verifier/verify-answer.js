#!/usr/bin/env node
// Independent verifier for the service's signed answers, written from docs/audit.md
// and RFC 9421 (HTTP Message Signatures), RFC 9530 (Content-Digest), RFC 8037
// (Ed25519 JWKs) and RFC 7638 (JWK thumbprints).
//
// Plain Node.js (18 or later), no dependencies beyond the built-in crypto module.
//
//   node verify-answer.js EXCHANGE.json JWKS.json|JWKS-URL
//
// EXCHANGE.json is the stored exchange: {"request": {"method", "url", "body"},
// "response": {"status", "headers", "body"}}, the bodies as their exact text.
// JWKS.json is the service's /.well-known/jwks.json, saved, or its http(s) URL.
//
// Exit status: 0 when the signature holds, 1 when it does not, 2 for a usage error.
"use strict";

const crypto = require("node:crypto");
const fs = require("node:fs");

const LABEL = "baccarat";
// What the signature must cover (docs/audit.md).
const REQUIRED = [
  '"@status"',
  '"content-type"',
  '"content-digest"',
  '"@method";req',
  '"@target-uri";req',
  '"content-digest";req',
];

class UsageError extends Error {}

function header(headers, name) {
  const found = Object.keys(headers).filter((key) => key.toLowerCase() === name);
  return found.length ? found.map((key) => String(headers[key]).trim()).join(", ") : null;
}

function contentDigest(text) {
  const digest = crypto.createHash("sha256").update(Buffer.from(text, "utf8")).digest("base64");
  return `sha-256=:${digest}:`;
}

function base64url(buffer) {
  return buffer.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// RFC 7638: sha-256 over {"crv","kty","x"} in this order, no whitespace.
function thumbprint(jwk) {
  const members = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return base64url(crypto.createHash("sha256").update(members).digest());
}

// The inner list and its parameters of our label in Signature-Input (RFC 8941
// dictionary member): `baccarat=("@status" ...);created=...;keyid="...";alg="ed25519"`.
function signatureParams(signatureInput) {
  const at = signatureInput.search(new RegExp(`(^|[,\\s])${LABEL}=\\(`));
  if (at < 0) throw new Error(`Signature-Input has no "${LABEL}" signature`);
  const start = signatureInput.indexOf("(", at);
  // The member ends at the first comma outside a quoted string, or at the end.
  let end = signatureInput.length;
  let inQuotes = false;
  for (let i = start; i < signatureInput.length; i++) {
    if (signatureInput[i] === '"') inQuotes = !inQuotes;
    if (signatureInput[i] === "," && !inQuotes) {
      end = i;
      break;
    }
  }
  const value = signatureInput.slice(start, end).trim();
  const close = value.indexOf(")");
  const components = [...value.slice(1, close).matchAll(/"[^"\\]*"(?:;[a-z*][a-z0-9_.*-]*(?:=[^;\s)]+)?)*/g)].map(
    (match) => match[0],
  );
  const params = {};
  for (const match of value.slice(close + 1).matchAll(/;([a-z*][a-z0-9_.*-]*)(?:=("[^"]*"|[^;]*))?/g)) {
    params[match[1]] = match[2] === undefined ? true : match[2].replace(/^"|"$/g, "");
  }
  return { value, components, params };
}

function signatureBytes(signature) {
  const match = signature.match(new RegExp(`(?:^|[,\\s])${LABEL}=:([A-Za-z0-9+/=]+):`));
  if (!match) throw new Error(`Signature has no "${LABEL}" signature`);
  return Buffer.from(match[1], "base64");
}

// The value of one covered component, from the stored exchange.
function componentValue(component, exchange, requestDigest) {
  const { request, response } = exchange;
  switch (component) {
    case '"@status"':
      return String(response.status);
    case '"@method";req':
      return request.method;
    case '"@target-uri";req':
      return request.url;
    case '"content-digest";req':
      return requestDigest;
    default: {
      const name = component.match(/^"([a-z0-9_.*-]+)"$/);
      if (!name) throw new Error(`unsupported component ${component}`);
      const value = header(response.headers, name[1]);
      if (value === null) throw new Error(`the answer has no ${name[1]} header`);
      return value;
    }
  }
}

function verify(exchange, jwks) {
  const headers = exchange.response.headers;
  const input = header(headers, "signature-input");
  const signature = header(headers, "signature");
  if (input === null || signature === null) return { verified: false, reason: "no Signature-Input and Signature" };
  const { value, components, params } = signatureParams(input);
  const keyid = params.keyid;
  for (const required of REQUIRED) {
    if (!components.includes(required)) return { verified: false, keyid, reason: `${required} is not covered` };
  }
  if (params.alg !== undefined && params.alg !== "ed25519") {
    return { verified: false, keyid, reason: `alg ${params.alg} is not ed25519` };
  }
  const jwk = (jwks.keys || []).find((key) => key.kty === "OKP" && key.crv === "Ed25519" && thumbprint(key) === keyid);
  if (!jwk) return { verified: false, keyid, reason: `the key ${keyid} is not in the JWK Set` };
  if (header(headers, "content-digest") !== contentDigest(exchange.response.body)) {
    return { verified: false, keyid, reason: "the answer's Content-Digest does not match its bytes" };
  }
  const requestDigest = contentDigest(exchange.request.body);
  const lines = components.map((c) => `${c}: ${componentValue(c, exchange, requestDigest)}`);
  lines.push(`"@signature-params": ${value}`);
  const base = Buffer.from(lines.join("\n"), "utf8");
  const key = crypto.createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" });
  if (!crypto.verify(null, base, key, signatureBytes(signature))) {
    return { verified: false, keyid, reason: "the signature does not hold for this request and answer" };
  }
  return { verified: true, keyid, created: Number(params.created), ephemeral: jwk.ephemeral === true };
}

function readJson(path) {
  return JSON.parse(fs.readFileSync(path === "-" ? 0 : path, "utf8"));
}

// The JWK Set from a file, or fetched from the service's well-known URL.
async function readJwks(source) {
  if (!/^https?:\/\//.test(source)) return readJson(source);
  const answer = await fetch(source, { signal: AbortSignal.timeout(30000) });
  if (!answer.ok) throw new Error(`${source}: HTTP ${answer.status}`);
  return answer.json();
}

async function main(argv) {
  if (argv.length !== 2) throw new UsageError("usage: node verify-answer.js EXCHANGE.json JWKS.json|JWKS-URL");
  const exchange = readJson(argv[0]);
  const verdict = verify(exchange, await readJwks(argv[1]));
  process.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
  return verdict.verified ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
