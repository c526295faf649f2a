// Everything the composer needs from the command schemas, in one module the
// composer loads on demand (import()), so the schemas and their TypeBox
// builder stay out of any bundle that only mounts the composer.
export { commandDescription, commandJsonSchema, commandTemplate, type AcceptedCommandType } from "@pier/protocol/command-schemas";
export { ACCEPTED_COMMAND_TYPES, validateCommand } from "@pier/protocol";
