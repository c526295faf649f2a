// The deny-list of files a viewer may not read by their name (viewer-reads.ts).
import { describe, expect, it } from "vitest";
import { isSecretByName } from "../../src/workspace/viewer-reads.ts";

describe("isSecretByName", () => {
  it("names .env and its variants, keys, certificates and credential files, in any folder and letter case", () => {
    const secrets = [
      ".env",
      ".env.local",
      ".env.production",
      "app/.ENV",
      "server.pem",
      "tls/private.key",
      "id_rsa",
      "id_rsa.pub",
      "home/id_ed25519",
      ".npmrc",
      ".pypirc",
      ".netrc",
      "cert.p12",
      "cert.PFX",
      ".git-credentials",
      "credentials.json",
      "secrets.yml",
      "config/secrets.json",
      ".ssh/config",
      "deploy/.aws/config",
      "terraform.tfstate",
    ];
    for (const path of secrets) expect(isSecretByName(path), path).toBe(true);
  });

  it("leaves templates and ordinary files readable", () => {
    const ordinary = [".env.example", ".env.sample", ".env.template", "environment.ts", "src/env.ts", "keys.md", "README.md", "secret-santa.txt", "src/.envrc-notes.md", "monkey.ts"];
    for (const path of ordinary) expect(isSecretByName(path), path).toBe(false);
  });
});
