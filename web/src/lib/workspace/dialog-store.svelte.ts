// The workbench's one modal question at a time (save before closing? new
// file name? delete?). A new question answers the open one with "no button".

export type DialogButton = { id: string; label: string; tone?: "primary" | "danger" };

export interface DialogAnswer {
  /** The button chosen; null when the dialog was dismissed or replaced. */
  button: string | null;
  value: string;
}

export interface DialogRequest {
  title: string;
  message: string;
  /** When set, the dialog asks for text (new file name, rename…). */
  input?: { label: string; value: string; selectBaseName?: boolean };
  buttons: DialogButton[];
  resolve: (result: DialogAnswer) => void;
}

export class DialogStore {
  dialog = $state<DialogRequest | null>(null);

  ask(request: Omit<DialogRequest, "resolve">): Promise<DialogAnswer> {
    return new Promise((resolve) => {
      this.dialog?.resolve({ button: null, value: "" });
      this.dialog = {
        ...request,
        resolve: (result) => {
          this.dialog = null;
          resolve(result);
        },
      };
    });
  }
}
