import { describe, expect, it } from "vitest";
import { SecretScrubber } from "../../src/secret-scrubber.ts";

describe("SecretScrubber", () => {
  const scrubber = new SecretScrubber(["--mode", "rpc", "--api-key", "short-but-8", "--token=abcdefgh12", "--model", "sonnet"], {
    ANTHROPIC_API_KEY: "not-shaped-like-anything",
    GITHUB_TOKEN: "tok-value-123456",
    SHORT_TOKEN: "1234",
    HOME: "/home/ada",
    PATH: "/usr/bin",
  });

  it("redacts the argument after a sensitive option and the value of --option=value, whatever their shape", () => {
    expect(scrubber.commandLine(["pi", "--mode", "rpc", "--api-key", "short-but-8", "--token=abcdefgh12", "--model", "sonnet"])).toEqual([
      "pi",
      "--mode",
      "rpc",
      "--api-key",
      "[redacted]",
      "--token=[redacted]",
      "--model",
      "sonnet",
    ]);
  });

  it("redacts a key of fewer than 8 characters after --api-key in a command line", () => {
    expect(new SecretScrubber([], {}).commandLine(["pi", "--api-key", "abc"])).toEqual(["pi", "--api-key", "[redacted]"]);
  });

  it("redacts the exact values of secret-named environment variables and arguments in free text", () => {
    expect(scrubber.text("401: key not-shaped-like-anything rejected; gh tok-value-123456; arg short-but-8")).toBe("401: key [redacted] rejected; gh [redacted]; arg [redacted]");
  });

  it("leaves ordinary values alone: short ones, and variables whose names say nothing secret", () => {
    expect(scrubber.text("HOME is /home/ada, PATH /usr/bin, port 1234")).toBe("HOME is /home/ada, PATH /usr/bin, port 1234");
  });

  it("still applies the shape rules (sk-…) to text", () => {
    expect(scrubber.text("using sk-ant-0123456789abcdefghij")).toBe("using sk-ant-[redacted]");
  });
});
