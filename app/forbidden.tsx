import Link from "next/link";

export default function Forbidden() {
  return (
    <main className="centered">
      <div className="card">
        <h1>Not for your role</h1>
        <p>You are signed in, but this page is for people with another role. Ask an admin if you need it.</p>
        <Link href="/">Back to your start page</Link>
      </div>
    </main>
  );
}
