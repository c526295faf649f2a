import { describe, expect, it } from "vitest";
import type { ConversationMessage } from "../src/lib/pi-types.ts";
import { hasImages, imagesNotSentText, needsModelList, readerOf, readsTextOnly } from "../src/lib/images/image-reader.ts";

const vision = { provider: "p", id: "vision", name: "Vision", input: ["text", "image"] as ("text" | "image")[] };
const textOnly = { provider: "p", id: "plain", name: "Plain", input: ["text"] as ("text" | "image")[] };
const image = { type: "image" as const, mimeType: "image/png", data: "AAAA" };
const user = (withImage: boolean) => ({ role: "user", content: withImage ? [{ type: "text", text: "look" }, image] : "hi", timestamp: 1 }) as unknown as ConversationMessage;
const answer = (model: string) => ({ role: "assistant", provider: "p", model, content: [], timestamp: 2 }) as unknown as ConversationMessage;

describe("image-reader", () => {
  it("calls a model text-only only when pi said what it reads", () => {
    expect(readsTextOnly(textOnly)).toBe(true);
    expect(readsTextOnly(vision)).toBe(false);
    expect(readsTextOnly(null)).toBe(false);
    expect(readsTextOnly({} as never)).toBe(false);
  });

  it("finds the model that answered a prompt (one queued behind it went in the same call), else the current one while unanswered", () => {
    const messages = [user(true), user(false), answer("plain"), user(true)];
    expect(readerOf(messages, 0, vision, [vision, textOnly])?.name).toBe("Plain");
    expect(readerOf(messages, 0, vision, null)).toBeNull();
    expect(readerOf(messages, 0, textOnly, null)?.name).toBe("Plain");
    expect(readerOf(messages, 3, vision, null)?.name).toBe("Vision");
  });

  it("asks for pi's model list only when an answered prompt with images names a model the page cannot look up", () => {
    expect(hasImages(user(true))).toBe(true);
    expect(hasImages(user(false))).toBe(false);
    expect(needsModelList([user(true), answer("plain")], vision)).toBe(true);
    expect(needsModelList([user(true), answer("vision")], vision)).toBe(false);
    expect(needsModelList([user(false), answer("plain")], vision)).toBe(false);
  });

  it("says how many images did not reach which model", () => {
    expect(imagesNotSentText("Plain", 1)).toBe("Image not sent: Plain reads text only.");
    expect(imagesNotSentText("Plain", 3)).toBe("3 images not sent: Plain reads text only.");
  });
});
