import Link from "next/link";

export default function NotFound() {
  return (
    <main className="centered">
      <div className="card">
        <h1>Nothing here</h1>
        <p>That page does not exist, or it is not yours to see.</p>
        <Link href="/">Back to your start page</Link>
      </div>
    </main>
  );
}
