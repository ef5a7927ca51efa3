import { describe, expect, it } from "vitest";
import { choicesMatching } from "@/components/questions/search-choice-field";

const people = [
  { value: "1", label: "Priya Shah" },
  { value: "2", label: "Sam Rivera" },
  { value: "3", label: "Zoë Park (away — Sam Rivera answers for them)" },
];

describe("a searchable choice", () => {
  it("keeps the options holding every word typed, in any case, in the schema's order", () => {
    expect(choicesMatching(people, "sam RIV").map((choice) => choice.value)).toEqual(["2", "3"]);
  });

  it("finds a name with accents when it is typed without them", () => {
    expect(choicesMatching(people, "zoe").map((choice) => choice.value)).toEqual(["3"]);
  });

  it("offers every option when nothing is typed, and none when nothing holds the words", () => {
    expect([choicesMatching(people, "  ").length, choicesMatching(people, "nobody").length]).toEqual([3, 0]);
  });
});
