// Whether a model reads the images of a prompt. pi sends a text-only model
// (models.json `input: ["text"]`) "(image omitted: model does not support
// images)" in place of each image, and keeps the image in the session: the
// prompt looks sent, but the model never saw it. The page says so before
// sending (the attachment strip) and after (on the user message), from the
// capabilities pi reports for the model (get_state, get_available_models).
import type { Model } from "@pier/protocol";
import type { ConversationMessage } from "../pi-types.ts";

type Reader = Pick<Model, "provider" | "id" | "name" | "input">;

/** A model that reads text only; false when pi did not say (an old pi, no model): the page does not guess. */
export function readsTextOnly(model: Pick<Model, "input"> | null | undefined): boolean {
  return Array.isArray(model?.input) && !model.input.includes("image");
}

/** A user message that carried images. */
export function hasImages(message: ConversationMessage): boolean {
  return message.role === "user" && typeof message.content !== "string" && message.content.some((block) => block.type === "image");
}

/**
 * Whether a prompt with images was answered by a model the page cannot look
 * up yet (not the current one, and pi's model list not asked): then the list
 * is worth asking for, once.
 */
export function needsModelList(messages: readonly ConversationMessage[], current: Reader | null): boolean {
  return messages.some((message, index) => hasImages(message) && readerOf(messages, index, current, null) === null);
}

/** The words on a prompt whose images a text-only model did not get: "Image not sent: Pier demo model (fast) reads text only." */
export function imagesNotSentText(modelName: string, count: number): string {
  return `${count === 1 ? "Image" : `${count} images`} not sent: ${modelName} reads text only.`;
}

/** The words on the attachment strip while the current model reads text only. */
export function imagesWillNotBeSentText(modelName: string, count: number): string {
  return `${modelName} reads text only: pi will not send ${count === 1 ? "this image" : `these ${count} images`} to it, only your text. Choose a model that reads images to send ${count === 1 ? "it" : "them"}.`;
}

/**
 * The model that read the user message at `index`: the one named by the
 * first answer after it (a prompt queued behind it went in the same call),
 * looked up among the models
 * the page knows; the current model while no answer came yet. Null when
 * that model is not known here (its capabilities cannot be told).
 */
export function readerOf(messages: readonly ConversationMessage[], index: number, current: Reader | null, known: readonly Reader[] | null): Reader | null {
  for (let i = index + 1; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== "assistant") continue;
    const same = (m: Reader | null | undefined) => m != null && m.provider === message.provider && m.id === message.model;
    if (same(current)) return current;
    return known?.find(same) ?? null;
  }
  return current;
}
