// The scratch project a demo pier's pi (and the file API) works in, as its hello frame names it.
import { connectBrowser, type RunningPier } from "../../relay/test/support/pier-process.ts";

export async function projectDir(pier: RunningPier): Promise<string> {
  const browser = await connectBrowser(pier);
  try {
    const dir = browser.hello.demo?.projectDir;
    if (!dir) throw new Error("pier --demo did not name its project dir");
    return dir;
  } finally {
    await browser.close();
  }
}
