import { createBashTool } from './bash.js';
import { createEditFileTool } from './edit-file.js';
import { createGlobTool } from './glob.js';
import { createGrepTool } from './grep.js';
import { createListDirTool } from './list-dir.js';
import { createReadFileTool } from './read-file.js';
import type { AnyTool } from './tool.js';
import { createWriteFileTool } from './write-file.js';

/** The tools every session starts with, in the order the model sees them. */
export function createBuiltinTools(): AnyTool[] {
  return [
    createReadFileTool(),
    createWriteFileTool(),
    createEditFileTool(),
    createListDirTool(),
    createGlobTool(),
    createGrepTool(),
    createBashTool(),
  ];
}
