import { mount } from "svelte";
import App from "./App.svelte";
import "./app.css";
import { connection } from "./lib/app-context.svelte.ts";

const target = document.getElementById("app");
if (target === null) throw new Error("#app is missing from index.html");

mount(App, { target });
connection.connect();
