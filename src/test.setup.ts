// Shared vitest setup: jest-dom matchers for UI tests (harmless in node-environment tests).
import '@testing-library/jest-dom/vitest';
