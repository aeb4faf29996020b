import type { LanguageFn } from 'highlight.js/lib/core.js';
import apache from 'highlight.js/lib/languages/apache.js';
import awk from 'highlight.js/lib/languages/awk.js';
import bash from 'highlight.js/lib/languages/bash.js';
import c from 'highlight.js/lib/languages/c.js';
import clojure from 'highlight.js/lib/languages/clojure.js';
import cmake from 'highlight.js/lib/languages/cmake.js';
import cpp from 'highlight.js/lib/languages/cpp.js';
import csharp from 'highlight.js/lib/languages/csharp.js';
import css from 'highlight.js/lib/languages/css.js';
import dart from 'highlight.js/lib/languages/dart.js';
import diff from 'highlight.js/lib/languages/diff.js';
import dockerfile from 'highlight.js/lib/languages/dockerfile.js';
import dos from 'highlight.js/lib/languages/dos.js';
import elixir from 'highlight.js/lib/languages/elixir.js';
import erlang from 'highlight.js/lib/languages/erlang.js';
import fsharp from 'highlight.js/lib/languages/fsharp.js';
import go from 'highlight.js/lib/languages/go.js';
import gradle from 'highlight.js/lib/languages/gradle.js';
import groovy from 'highlight.js/lib/languages/groovy.js';
import handlebars from 'highlight.js/lib/languages/handlebars.js';
import haskell from 'highlight.js/lib/languages/haskell.js';
import ini from 'highlight.js/lib/languages/ini.js';
import java from 'highlight.js/lib/languages/java.js';
import javascript from 'highlight.js/lib/languages/javascript.js';
import json from 'highlight.js/lib/languages/json.js';
import julia from 'highlight.js/lib/languages/julia.js';
import kotlin from 'highlight.js/lib/languages/kotlin.js';
import latex from 'highlight.js/lib/languages/latex.js';
import less from 'highlight.js/lib/languages/less.js';
import lua from 'highlight.js/lib/languages/lua.js';
import makefile from 'highlight.js/lib/languages/makefile.js';
import markdown from 'highlight.js/lib/languages/markdown.js';
import mojolicious from 'highlight.js/lib/languages/mojolicious.js';
import nginx from 'highlight.js/lib/languages/nginx.js';
import nix from 'highlight.js/lib/languages/nix.js';
import objectivec from 'highlight.js/lib/languages/objectivec.js';
import ocaml from 'highlight.js/lib/languages/ocaml.js';
import perl from 'highlight.js/lib/languages/perl.js';
import php from 'highlight.js/lib/languages/php.js';
import plaintext from 'highlight.js/lib/languages/plaintext.js';
import powershell from 'highlight.js/lib/languages/powershell.js';
import properties from 'highlight.js/lib/languages/properties.js';
import protobuf from 'highlight.js/lib/languages/protobuf.js';
import python from 'highlight.js/lib/languages/python.js';
import pythonRepl from 'highlight.js/lib/languages/python-repl.js';
import r from 'highlight.js/lib/languages/r.js';
import ruby from 'highlight.js/lib/languages/ruby.js';
import rust from 'highlight.js/lib/languages/rust.js';
import scala from 'highlight.js/lib/languages/scala.js';
import scss from 'highlight.js/lib/languages/scss.js';
import shell from 'highlight.js/lib/languages/shell.js';
import sql from 'highlight.js/lib/languages/sql.js';
import swift from 'highlight.js/lib/languages/swift.js';
import typescript from 'highlight.js/lib/languages/typescript.js';
import vim from 'highlight.js/lib/languages/vim.js';
import x86asm from 'highlight.js/lib/languages/x86asm.js';
import xml from 'highlight.js/lib/languages/xml.js';
import yaml from 'highlight.js/lib/languages/yaml.js';

// The highlight.js languages bundled with the markdown engine, so their fenced blocks are coloured
// on the first render: the common ones, and every language they embed (xml embeds css, javascript
// and handlebars; yaml ruby; shell and dockerfile bash; perl mojolicious; dart markdown; python-repl
// python). code-highlight.ts registers each the first time a block names it (~0.1-3 ms each; all
// of these at import took ~10 ms). The other ~130 are imported on demand (hljs-catalogue.ts, whose
// test checks that whatever a bundled language embeds is bundled too). Aliases come with them: ts,
// js, py, sh, zsh, yml, html, toml, rs, golang, c++, cs, md, ps1, kt, rb, hs, ...

export const BUNDLED_LANGUAGES: Readonly<Record<string, LanguageFn>> = {
  apache,
  awk,
  bash,
  c,
  clojure,
  cmake,
  cpp,
  csharp,
  css,
  dart,
  diff,
  dockerfile,
  dos,
  elixir,
  erlang,
  fsharp,
  go,
  gradle,
  groovy,
  handlebars,
  haskell,
  ini,
  java,
  javascript,
  json,
  julia,
  kotlin,
  latex,
  less,
  lua,
  makefile,
  markdown,
  mojolicious,
  nginx,
  nix,
  objectivec,
  ocaml,
  perl,
  php,
  plaintext,
  powershell,
  properties,
  protobuf,
  python,
  'python-repl': pythonRepl,
  r,
  ruby,
  rust,
  scala,
  scss,
  shell,
  sql,
  swift,
  typescript,
  vim,
  x86asm,
  xml,
  yaml,
};
