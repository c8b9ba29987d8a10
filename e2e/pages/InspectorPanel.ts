// Page object for the inspector's container and slot editors.
import { expect, type Page } from '@playwright/test';

export class InspectorPanel {
  constructor(readonly page: Page) {}

  async commit(testId: string, value: string) {
    const input = this.page.getByTestId(testId);
    await input.fill(value);
    await input.press('Enter');
  }

  async renameNode(id: string) {
    await this.commit('node-id', id);
  }

  async addSlot(spec: {
    name: string;
    reducer: string;
    lifetime: string;
    valueType?: string;
    resetOn?: string;
    initial?: string;
    maxSize?: string;
    fields?: string[];
  }) {
    const before = await this.page.locator('[data-testid^="slot-editor-"]').count();
    await this.page.getByTestId('add-slot').click();
    await expect(this.page.locator('[data-testid^="slot-editor-"]')).toHaveCount(before + 1);
    const tmp = `slot_${await this.nextTempIndex(before)}`;
    await this.commit(`slot-${tmp}-name`, spec.name);
    const p = `slot-${spec.name}`;
    await this.page.getByTestId(`${p}-reducer`).selectOption(spec.reducer);
    await this.page.getByTestId(`${p}-lifetime`).selectOption(spec.lifetime);
    if (spec.valueType) await this.commit(`${p}-value-type`, spec.valueType);
    if (spec.resetOn) await this.commit(`${p}-reset-on`, spec.resetOn);
    if (spec.initial) await this.commit(`${p}-initial`, spec.initial);
    if (spec.maxSize) await this.commit(`${p}-max-size`, spec.maxSize);
    for (const f of spec.fields ?? []) await this.commit(`${p}-add-field`, f);
  }

  /** The add button names new slots slot_<n> with the smallest free n; read it from the new editor. */
  private async nextTempIndex(before: number): Promise<number> {
    const id = await this.page
      .locator('[data-testid^="slot-editor-"]')
      .nth(before)
      .getAttribute('data-testid');
    return Number(/slot_(\d+)$/.exec(id ?? '')?.[1] ?? '1');
  }
}
