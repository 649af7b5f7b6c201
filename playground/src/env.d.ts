/// <reference types="vite/client" />
/// <reference types="unplugin-skills/client" />
