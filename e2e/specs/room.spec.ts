// Pair and classroom mode in real browsers: a driver (the printed link)
// shares a viewer link from the Share dialog; a second browser context opens
// it. Both see who is here; names are remembered and shown as text; the
// viewer watches live but cannot act (and the relay refuses a hand-made
// socket and the file API); suggestions go from viewer to driver's prompt
// box; revoking the link disconnects the viewer at once.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { connectBrowser, exchangeToken, type RunningPier } from "../../relay/test/support/pier-process.ts";
import { expect, test } from "../support/pier.ts";

const MARKUP_NAME = "<img src=x onerror=alert(1)>";

const connected = (page: Page) => page.getByRole("status", { name: "Connection: Connected" });
const conversation = (page: Page) => page.getByRole("log", { name: "Conversation" });

/** A row of the people list: "Ada (you) driver". */
function person(name: string, role: "driver" | "viewer", you = false): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^\\s*${escaped}\\s*${you ? "\\(you\\)\\s*" : ""}${role}\\b`);
}

/** Opens the people popover and returns its list ("People"). */
async function openPeople(page: Page, count: number) {
  await page.getByRole("button", { name: `People here: ${count}` }).click();
  return page.getByRole("dialog", { name: "People here" }).getByRole("list", { name: "People" });
}

async function closePopover(page: Page) {
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "People here" })).toBeHidden();
}

/** The driver makes a viewer link in the Share dialog; returns its address (and leaves the dialog open). */
async function makeViewerLink(page: Page, pier: RunningPier): Promise<string> {
  await page.getByRole("button", { name: "Share" }).click();
  const share = page.getByRole("dialog", { name: "Share" });
  await expect(share.getByText("watch this session live for 12 h")).toBeVisible();
  await expect(share.getByText("It works once, within 15 min.")).toBeVisible();
  await share.getByRole("button", { name: "Create viewer link" }).click();
  const address = share.getByRole("textbox", { name: "Link address" });
  await expect(address).toHaveValue(new RegExp(`^${pier.origin.replace(/[.]/g, "\\.")}/\\?token=[\\w-]{20,}$`));
  await expect(share.getByRole("img", { name: "QR code of the viewer link" })).toBeVisible();
  return address.inputValue();
}

type Room = { driver: Page; viewer: Page; viewerContext: BrowserContext; link: string; errors: string[] };

/** A driver named Ada and a viewer who came in through the driver's viewer link. */
async function driverAndViewer(page: Page, browser: Browser, pier: RunningPier, viewerName: string): Promise<Room> {
  await page.goto(pier.url);
  await expect(connected(page)).toBeVisible();
  const list = await openPeople(page, 1);
  await expect(list.getByRole("listitem")).toContainText([person("Driver", "driver", true)]);
  await page.getByRole("dialog", { name: "People here" }).getByRole("textbox", { name: "Your name" }).fill("Ada");
  await page.getByRole("dialog", { name: "People here" }).getByRole("button", { name: "Save name" }).click();
  await expect(list.getByRole("listitem")).toContainText([person("Ada", "driver", true)]);
  await closePopover(page);

  const link = await makeViewerLink(page, pier);
  await page.getByRole("dialog", { name: "Share" }).getByRole("button", { name: "Close" }).click();

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  // Page errors in either browser (e.g. a page that learns it is a viewer's while its prompt box has the focus).
  const errors: string[] = [];
  for (const p of [page, viewer]) p.on("pageerror", (error) => errors.push(error.message));
  await viewer.goto(link);
  await expect(connected(viewer)).toBeVisible();
  // A newcomer is asked for a name in a banner, not a modal.
  const banner = viewer.getByRole("region", { name: "Introduce yourself" });
  await expect(banner).toContainText("Others here see you as Viewer 1");
  await banner.getByRole("textbox", { name: "Your name" }).fill(viewerName);
  await banner.getByRole("button", { name: "Save name" }).click();
  await expect(banner).toBeHidden();
  return { driver: page, viewer, viewerContext, link, errors };
}

test("the header lists who is here with their roles; names are remembered and shown as text", async ({ page, browser, pier }) => {
  const dialogs: string[] = [];
  const { driver, viewer, viewerContext } = await driverAndViewer(page, browser, pier, MARKUP_NAME);
  viewer.on("dialog", (d) => void d.dismiss().then(() => dialogs.push(d.message())));
  driver.on("dialog", (d) => void d.dismiss().then(() => dialogs.push(d.message())));

  const seenByDriver = await openPeople(driver, 2);
  await expect(seenByDriver.getByRole("listitem")).toContainText([person("Ada", "driver", true), person(MARKUP_NAME, "viewer")]);
  // The markup is text: no element was made of it.
  await expect(driver.locator("img[src='x']")).toHaveCount(0);
  await expect(seenByDriver.getByText(MARKUP_NAME, { exact: true })).toBeVisible();
  await closePopover(driver);

  const seenByViewer = await openPeople(viewer, 2);
  await expect(seenByViewer.getByRole("listitem")).toContainText([person(MARKUP_NAME, "viewer", true), person("Ada", "driver")]);
  await expect(viewer.locator("img[src='x']")).toHaveCount(0);
  await closePopover(viewer);

  // A reload is a new connection: the remembered name is told again, and not asked for; the colour stays.
  const viewerColour = async () => {
    const list = await openPeople(driver, 2);
    const row = list.getByRole("listitem").filter({ hasText: MARKUP_NAME });
    await expect(row).toHaveCount(1);
    const colour = await row.locator(".dot").evaluate((dot) => getComputedStyle(dot).getPropertyValue("--person"));
    await closePopover(driver);
    return colour;
  };
  const colourBefore = await viewerColour();
  await viewer.reload();
  await expect(connected(viewer)).toBeVisible();
  await expect(viewer.getByRole("region", { name: "Introduce yourself" })).toBeHidden();
  const again = await openPeople(driver, 2);
  await expect(again.getByRole("listitem")).toContainText([person("Ada", "driver", true), person(MARKUP_NAME, "viewer")]);
  await closePopover(driver);
  expect(colourBefore).toMatch(/^#[0-9a-f]{6}$/);
  expect(await viewerColour()).toBe(colourBefore);

  // Renaming from the people list.
  await openPeople(viewer, 2);
  const popover = viewer.getByRole("dialog", { name: "People here" });
  await popover.getByRole("button", { name: "Rename" }).click();
  await popover.getByRole("textbox", { name: "Your name" }).fill("Grace");
  await popover.getByRole("button", { name: "Save name" }).click();
  await closePopover(viewer);
  const renamed = await openPeople(driver, 2);
  await expect(renamed.getByRole("listitem")).toContainText([person("Ada", "driver", true), person("Grace", "viewer")]);

  // The driver's name survives a reload too (localStorage, this browser).
  await closePopover(driver);
  await driver.reload();
  await expect(connected(driver)).toBeVisible();
  const afterReload = await openPeople(driver, 2);
  await expect(afterReload.getByRole("listitem")).toContainText([person("Ada", "driver", true), person("Grace", "viewer")]);
  expect(dialogs).toEqual([]);
  await viewerContext.close();
});

test("a class opening the viewer link together shows up in the driver's people list, and leaves it again", async ({ page, pier }) => {
  await page.goto(pier.url);
  await expect(connected(page)).toBeVisible();
  const teacher = await connectBrowser(pier);
  teacher.send({ type: "pier.create_link", role: "viewer" });
  const link = (await teacher.waitForFrame("link_created")) as { token: string };
  await expect(page.getByRole("button", { name: "People here: 2" })).toBeVisible();
  // Six browsers at once: the relay tells the open page of those after the first together ("arrived": relay/test/relay/classroom.contract.test.ts).
  const cookies = await Promise.all(Array.from({ length: 6 }, () => exchangeToken(`http://${pier.host}/?token=${link.token}`, pier.port)));
  const viewers = await Promise.all(cookies.map((cookie) => connectBrowser(pier, { cookie })));
  const list = await openPeople(page, 8);
  await expect(list.getByRole("listitem")).toHaveCount(8);
  for (const viewer of viewers) await expect(list.getByRole("listitem").filter({ hasText: viewer.hello.you.name })).toHaveCount(1);
  await closePopover(page);

  await Promise.all([...viewers, teacher].map((socket) => socket.close()));
  await expect(page.getByRole("button", { name: "People here: 1" })).toBeVisible();
});

test("two drivers who skip the name banner are told apart: the second is Driver 2, on both pages", async ({ page, browser, pier }) => {
  await page.goto(pier.url);
  await expect(connected(page)).toBeVisible();
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await other.goto(await pier.freshUrl());
  await expect(connected(other)).toBeVisible();
  await expect(other.getByRole("region", { name: "Introduce yourself" })).toContainText("Others here see you as Driver 2.");

  const seenByFirst = await openPeople(page, 2);
  await expect(seenByFirst.getByRole("listitem")).toContainText([person("Driver", "driver", true), person("Driver 2", "driver")]);
  await closePopover(page);
  const seenBySecond = await openPeople(other, 2);
  await expect(seenBySecond.getByRole("listitem")).toContainText([person("Driver 2", "driver", true), person("Driver", "driver")]);
  await closePopover(other);

  // A reload keeps the seat: still Driver 2, not a third name.
  await other.reload();
  await expect(connected(other)).toBeVisible();
  await expect(other.getByRole("region", { name: "Introduce yourself" })).toContainText("Others here see you as Driver 2.");
  await otherContext.close();
});

test("a viewer watches live but cannot act, and the relay refuses a hand-made socket and the file API", async ({ page, browser, pier }) => {
  const { driver, viewer, viewerContext, errors } = await driverAndViewer(page, browser, pier, "Grace");

  const prompt = driver.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("Hello there");
  await prompt.press("Enter");
  await expect(conversation(viewer).getByRole("article", { name: "pi" }).last()).toContainText("Hello from the scripted model!");

  // Read-only, and it says so.
  await expect(viewer.getByRole("textbox", { name: "Prompt", exact: true })).toHaveCount(0);
  await expect(viewer.getByRole("region", { name: "Suggest a prompt" })).toContainText("You are watching (read-only).");
  await expect(viewer.getByRole("button", { name: /^Model: / })).toBeDisabled();
  await expect(viewer.getByRole("combobox", { name: "Thinking level" })).toBeDisabled();
  await expect(viewer.getByRole("button", { name: "Session settings" })).toBeDisabled();
  await expect(viewer.getByRole("button", { name: "Share" })).toHaveCount(0);
  await viewer.getByRole("button", { name: "Terminal", exact: true }).click();
  await expect(viewer.getByRole("textbox", { name: "Shell command" })).toBeDisabled();
  await expect(viewer.getByRole("textbox", { name: "Shell command" })).toHaveAttribute("placeholder", "Viewers can't run shell commands — ask the driver.");
  // Watching sent pi nothing: no refusal to show.
  await expect(viewer.getByText("Relay refused a command")).toHaveCount(0);

  // Past the UI: a socket made by hand with the viewer's cookie, sending a prompt.
  const refusal = await viewer.evaluate(
    (url) =>
      new Promise<{ code: string; message: string }>((resolve, reject) => {
        const socket = new WebSocket(url);
        socket.onmessage = (event) => {
          if (typeof event.data !== "string") return;
          const frame = JSON.parse(event.data) as { type: string; code?: string; message?: string; command?: { id?: string } };
          if (frame.type === "hello") socket.send(JSON.stringify({ type: "prompt", message: "pwned", id: "by-hand-1" }));
          if (frame.type === "error" && frame.command?.id === "by-hand-1") {
            socket.close();
            resolve({ code: frame.code!, message: frame.message! });
          }
        };
        socket.onclose = (event) => reject(new Error(`closed ${event.code} before an answer`));
      }),
    `${pier.origin.replace(/^http/, "ws")}/ws`,
  );
  expect(refusal.code).toBe("forbidden");
  expect(refusal.message).toMatch(/only a driver can send pi commands/);

  // The file API: reading is fine, changing is not.
  const statuses = await viewer.evaluate(async () => {
    const json = { "Content-Type": "application/json" };
    const save = await fetch("/api/files/content", { method: "PUT", headers: json, body: JSON.stringify({ path: "owned.txt", content: "x", baseVersion: null }) });
    const create = await fetch("/api/files/create", { method: "POST", headers: json, body: JSON.stringify({ path: "owned", type: "folder" }) });
    const tree = await fetch("/api/files/tree");
    return { save: save.status, saveBody: await save.text(), create: create.status, tree: tree.status };
  });
  expect(statuses).toMatchObject({ save: 403, create: 403, tree: 200 });
  expect(statuses.saveBody).toMatch(/only a driver can save/);
  await expect(conversation(driver)).not.toContainText("pwned");
  expect(errors).toEqual([]);
  await viewerContext.close();
});

test("a viewer suggests a prompt; the driver uses it into the prompt box, or it is withdrawn", async ({ page, browser, pier }) => {
  const { driver, viewer, viewerContext } = await driverAndViewer(page, browser, pier, "Grace");

  const suggestBox = viewer.getByRole("textbox", { name: "Suggested prompt" });
  await suggestBox.fill("run the tests first");
  await viewer.getByRole("button", { name: "Suggest", exact: true }).click();
  await expect(viewer.getByRole("list", { name: "Your suggestions" })).toContainText("run the tests first");

  const inbox = driver.getByRole("list", { name: "Suggestions" });
  await expect(inbox).toContainText("Grace suggests: run the tests first");
  await inbox.getByRole("button", { name: "Use" }).click();
  await expect(driver.getByRole("textbox", { name: "Prompt" })).toHaveValue("run the tests first");
  await expect(inbox).toBeHidden();
  await expect(viewer.getByRole("list", { name: "Your suggestions" })).toBeHidden();

  // Withdrawn before the driver got to it.
  await suggestBox.fill("maybe add a README");
  await suggestBox.press("Enter");
  await expect(inbox).toContainText("Grace suggests: maybe add a README");
  await viewer.getByRole("list", { name: "Your suggestions" }).getByRole("button", { name: "Withdraw" }).click();
  await expect(inbox).toBeHidden();
  await viewerContext.close();
});

test("revoking the viewer link disconnects the viewer at once; a forged link opens nothing", async ({ page, browser, pier }) => {
  const { driver, viewer, viewerContext, link } = await driverAndViewer(page, browser, pier, "Grace");

  await driver.getByRole("button", { name: "Share" }).click();
  const share = driver.getByRole("dialog", { name: "Share" });
  const row = share.getByRole("list", { name: "Links" }).getByRole("listitem", { name: /^viewer link by Ada, active/ });
  await expect(row).toContainText("1 use");
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("Everyone who opened this link is disconnected at once");
  await row.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(share.getByRole("listitem", { name: /^viewer link by Ada, revoked/ })).toBeVisible();

  await expect(viewer.getByRole("alert").filter({ hasText: "No longer authorized." })).toContainText("was revoked");
  await expect(viewer.getByRole("status", { name: "Connection: Not authorized" })).toBeVisible();
  await expect(driver.getByRole("button", { name: "People here: 1" })).toBeVisible();

  // The revoked link, and a forged one, open nothing in a fresh browser.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  expect((await strangerPage.goto(link))?.status()).toBe(401);
  await expect(strangerPage.getByRole("heading", { name: "This link does not open Pier" })).toBeVisible();
  const forged = new URL(link);
  forged.searchParams.set("token", "A".repeat(43));
  expect((await strangerPage.goto(forged.href))?.status()).toBe(401);
  await expect(strangerPage.getByRole("heading", { name: "This link does not open Pier" })).toBeVisible();
  await stranger.close();
  await viewerContext.close();
});

test("a viewer who joins after pi restarted on the session loads its history from pi, like a driver", async ({ page, pier, browser }) => {
  await page.goto(pier.url);
  await expect(connected(page)).toBeVisible();
  const prompt = page.getByRole("textbox", { name: "Prompt" });
  await prompt.fill("hello before the restart");
  await prompt.press("Enter");
  await expect(conversation(page).getByRole("article", { name: "pi" })).toContainText("Hello from the scripted model!");
  await expect(page.getByRole("status", { name: "Agent: Idle" })).toBeVisible();

  // pi restarts on the same session file: its stdout replay starts empty, so
  // only pi's own get_entries can show a newcomer what was said.
  const driverSocket = await connectBrowser(pier);
  try {
    const id = "restart-state";
    driverSocket.send({ type: "get_state", id });
    const state = await driverSocket.waitForRecord((r) => r.type === "response" && r.id === id);
    driverSocket.send({ type: "pier.restart_pi", sessionFile: state.data.sessionFile });
    await driverSocket.waitForFrame("child_started");
  } finally {
    await driverSocket.close();
  }

  const link = await makeViewerLink(page, pier);
  const viewerContext = await browser.newContext();
  try {
    const viewer = await viewerContext.newPage();
    await viewer.goto(link);
    await expect(connected(viewer)).toBeVisible();
    await expect(conversation(viewer).getByRole("article", { name: "You" })).toContainText("hello before the restart");
    await expect(conversation(viewer).getByRole("article", { name: "pi" })).toContainText("Hello from the scripted model!");
    await expect(viewer.getByText("Relay refused a command")).toHaveCount(0);
  } finally {
    await viewerContext.close();
  }
});
