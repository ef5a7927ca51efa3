import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Parley", template: "%s · Parley" },
  description: "The inbox where AI agents and flows ask people, and wait for the answer.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, the page for a missing path too: each gets its own
  // Content-Security-Policy nonce (proxy.ts), which a page prerendered at build time could not carry.
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
