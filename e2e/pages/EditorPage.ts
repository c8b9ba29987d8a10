// Page object for the editor: how a user reaches things (data-testid), in one place.
import { expect, type Locator, type Page } from '@playwright/test';

declare global {
  interface Window {
    /** Drop events that reached the canvas (counted by EditorPage.dropOnCanvas). */
    __canvasDrops?: number;
  }
}

export class EditorPage {
  constructor(readonly page: Page) {}

  async open(query = '') {
    await this.page.goto(`/${query}`);
    await expect(this.page.locator('html[data-ready="true"]')).toBeAttached({ timeout: 20_000 });
  }

  node(id: string): Locator {
    return this.page.getByTestId(`node-${id}`);
  }

  container(id: string): Locator {
    return this.page.getByTestId(`container-${id}`);
  }

  /**
   * Selects a container by its title bar, as a user does: its middle may hold a slot's live value,
   * a button that opens the value viewer instead (whether it is there depends on when the latest
   * run's values arrive).
   */
  async selectContainer(id: string) {
    await this.page.getByTestId(`container-title-${id}`).click();
  }

  get canvas(): Locator {
    return this.page.getByTestId('canvas');
  }

  get refusal(): Locator {
    return this.page.getByTestId('connection-refusal');
  }

  activeTab(): Locator {
    return this.page.locator('[data-testid="tab"][data-active="true"]');
  }

  /** Drags a library entry onto the canvas at a point relative to the canvas' top-left. */
  async dragFromLibrary(type: string, x: number, y: number) {
    await this.dropOnCanvas(this.page.getByTestId(`library-item-${type}`), x, y);
  }

  /**
   * Drags `source` onto the canvas at (x, y) from its top-left with a real browser drag. The page
   * counts the drop events that reach the canvas, which a failed test's diagnostics print: a lost
   * drop and a drop that added the wrong thing look alike from the node list alone (CI once saw a
   * drag aimed at "LLM Call" add a "State Evict": the sidebar had moved under the pointer, see
   * layout-stability.spec.ts).
   */
  async dropOnCanvas(source: Locator, x: number, y: number) {
    await this.page.evaluate(() => {
      if (window.__canvasDrops !== undefined) return;
      window.__canvasDrops = 0;
      document.addEventListener(
        'drop',
        (e) => {
          if ((e.target as Element | null)?.closest?.('[data-testid="canvas"]'))
            window.__canvasDrops = (window.__canvasDrops ?? 0) + 1;
        },
        true,
      );
    });
    await source.dragTo(this.canvas, { targetPosition: { x, y } });
  }

  /** Drags from one handle to another with real mouse moves (React Flow listens to pointer events). */
  async dragHandle(from: Locator, to: Locator) {
    const a = await from.boundingBox();
    const b = await to.boundingBox();
    if (!a || !b) throw new Error('handle not visible');
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
    await this.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
    await this.page.mouse.up();
  }

  async connect(fromNode: string, outHandle: string, toNode: string, inHandle: string) {
    await this.dragHandle(
      this.page.getByTestId(`handle-out-${fromNode}-${outHandle}`),
      this.page.getByTestId(`handle-in-${toNode}-${inHandle}`),
    );
  }

  async grant(nodeId: string, containerId: string) {
    await this.dragHandle(
      this.page.getByTestId(`state-handle-${nodeId}`),
      this.container(containerId).locator('.react-flow__handle-top'),
    );
  }

  async waitJournal() {
    await expect(this.page.locator('html[data-journal="saved"]')).toBeAttached();
  }

  async press(keys: string) {
    await this.page.locator('body').press(keys);
  }
}
